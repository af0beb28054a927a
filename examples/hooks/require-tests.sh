#!/bin/sh
# A stop hook that behaves like a test suite: it fails (exit 1) until every module under src/ has a test.
# A failing stop hook blocks, and its last lines of output go back to the agent as the reason.
# stdin carries the JSON context (session_id, stop_reason, rounds, checkpoint, ...); this hook only needs the tree.
missing=""
for f in src/*.js; do
  [ -e "$f" ] || continue
  name=$(basename "$f" .js)
  [ "$name" = index ] && continue
  [ -e "test/$name.test.js" ] || missing="$missing test/$name.test.js"
done
if [ -n "$missing" ]; then
  echo "Missing tests:$missing. Add a test for each new module before finishing." >&2
  exit 1
fi
echo "every module has a test"
