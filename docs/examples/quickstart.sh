#!/bin/sh
# Vitrin API Quickstart with curl: upload a photo, start an image, poll until it is done, download it.
# Usage: VITRIN_URL=https://your-vitrin-host VITRIN_API_KEY=vtr_... sh quickstart.sh product.jpg [result.jpg]
set -eu
: "${VITRIN_URL:?Set VITRIN_URL to your Vitrin address}"
: "${VITRIN_API_KEY:?Set VITRIN_API_KEY to a key from Settings → API}"
photo="${1:?Give the product photo to upload}"
out="${2:-result.jpg}"

# Calls /v1 with the key. An error answer ({"error":{"code":…}}) is printed and stops the script.
api() {
  if ! body=$(curl -sS --fail-with-body -H "Authorization: Bearer $VITRIN_API_KEY" "$@"); then
    echo "$body" >&2
    return 1
  fi
  echo "$body"
}
# The first "name":"text" field of a JSON answer (with jq: jq -r .generation.status).
field() { grep -o "\"$1\":\"[^\"]*\"" | head -n 1 | cut -d '"' -f 4; }

# 1. Upload the photo (multipart, field "file"); the answer is {"asset":{"id":…}}.
answer=$(api -F "file=@$photo" "$VITRIN_URL/v1/assets")
asset_id=$(echo "$answer" | field id)

# 2. Start an image: the product in a new scene. 202 Accepted, status "queued".
answer=$(api -H 'Content-Type: application/json' \
  -d "{\"mode\":\"image\",\"imageAssetId\":\"$asset_id\",\"prompt\":\"on a marble countertop, soft daylight\"}" \
  "$VITRIN_URL/v1/generations")
generation_id=$(echo "$answer" | field id)
echo "generation $generation_id queued"

# 3. Poll until it is finished (or wait for a generation.succeeded webhook instead).
while :; do
  answer=$(api "$VITRIN_URL/v1/generations/$generation_id")
  status=$(echo "$answer" | field status)
  case "$status" in
    succeeded) break ;;
    queued | running) sleep "${POLL_SECONDS:-2}" ;;
    *) echo "generation $status: $answer" >&2; exit 1 ;;
  esac
done

# 4. Download the result (the file's own name is in Content-Disposition; curl -OJ would use it).
curl -sS --fail -H "Authorization: Bearer $VITRIN_API_KEY" -o "$out" "$VITRIN_URL/v1/generations/$generation_id/result"
echo "saved $out"
