// The pre-push hook `proctor init` writes to .husky/pre-push. It is also the package's hooks/pre-push (a
// test keeps the two identical), so the husky hook and a plain core.hooksPath hook behave the same.

export const PRE_PUSH_SCRIPT = `#!/bin/sh
# proctor pre-push hook: runs proctor's stop hooks before every push (docs/hooks.md).
# git passes "<remote> <url>" as arguments and one line per pushed ref on stdin; both go to proctor unchanged.
# Skip once with PROCTOR_SKIP=1 git push (or HUSKY=0). PROCTOR_BIN may name the proctor command,
# with arguments separated by spaces (e.g. "node /path/to/cli.js").
if [ "\${PROCTOR_SKIP:-}" = "1" ] || [ "\${HUSKY:-}" = "0" ]; then
  echo "proctor: pre-push stop hooks skipped (PROCTOR_SKIP=1 or HUSKY=0)" >&2
  exit 0
fi
if [ -n "\${PROCTOR_BIN:-}" ]; then
  exec $PROCTOR_BIN check --pre-push "$@"
elif [ -x node_modules/.bin/proctor ]; then
  exec node_modules/.bin/proctor check --pre-push "$@"
elif command -v proctor >/dev/null 2>&1; then
  exec proctor check --pre-push "$@"
elif command -v npx >/dev/null 2>&1 && npx --no-install proctor --version >/dev/null 2>&1; then
  exec npx --no-install proctor check --pre-push "$@"
fi
echo "proctor: cannot find proctor (tried \\$PROCTOR_BIN, node_modules/.bin/proctor, PATH, npx --no-install)." >&2
echo "proctor: install it (npm install --save-dev proctor) or skip once with PROCTOR_SKIP=1 git push" >&2
exit 1
`
