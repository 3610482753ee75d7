#!/usr/bin/env bash
# A documented check of the GraphQL explorer: starts the API on a spare port, opens GET /graphql in
# headless Chromium (Debian's `chromium` package: `apt-get install chromium`) and saves a screenshot
# (default docs/graphiql.png). The page must render GraphiQL with the schema's docs open, from this
# process's assets only (Chromium runs with the network limited to 127.0.0.1).
#
#   DATABASE_URL=postgres://postgres@127.0.0.1:5432/test scripts/graphiql-screenshot.sh [out.png]
#
# Chromium's headless User-Agent names HeadlessChrome, which the User-Agent rule refuses (it is an
# automated client), so it presents a desktop Chrome's, as a person's browser would.
set -euo pipefail
cd "$(dirname "$0")/.."
OUT="${1:-docs/graphiql.png}"
PORT="${PORT:-3917}"
CHROMIUM="$(command -v chromium || command -v chromium-browser || true)"
[ -n "$CHROMIUM" ] || { echo "chromium is not installed (apt-get install chromium)" >&2; exit 2; }
DATA="$(mktemp -d)"
PROFILE="$(mktemp -d)"
npm run -s build >/dev/null
PORT="$PORT" DATA_DIR="$DATA" node dist/src/main.js --api >"$DATA/server.log" 2>&1 &
SERVER=$!
cleanup() { kill "$SERVER" 2>/dev/null || true; wait "$SERVER" 2>/dev/null || true; rm -rf "$DATA" "$PROFILE"; }
trap cleanup EXIT
for _ in $(seq 1 120); do
  curl -sf -o /dev/null -A 'Mozilla/5.0 (X11; Linux x86_64) check' -H 'accept: text/html' "http://127.0.0.1:$PORT/graphql" && break
  kill -0 "$SERVER" 2>/dev/null || { cat "$DATA/server.log" >&2; exit 1; }
  sleep 0.5
done
"$CHROMIUM" --headless=new --no-sandbox --disable-gpu --hide-scrollbars --no-first-run \
  --user-data-dir="$PROFILE" --window-size=1440,900 --virtual-time-budget=10000 \
  --host-resolver-rules='MAP * ~NOTFOUND, EXCLUDE 127.0.0.1' \
  --user-agent='Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36' \
  --screenshot="$OUT" "http://127.0.0.1:$PORT/graphql" 2>"$DATA/chromium.log" || { cat "$DATA/chromium.log" >&2; exit 1; }
echo "Saved $OUT"
