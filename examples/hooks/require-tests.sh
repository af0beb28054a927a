#!/bin/sh
# A stop hook: blocks (exit 2) until every module under src/ has a test. The reason goes back to the agent.
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
  exit 2
fi
echo "every module has a test"
