#!/usr/bin/env bash
# The site check, as a reader would: builds the guide (bin/strand site: every sample present, every link
# resolved), opens its main pages in headless Chromium (Debian's chromium), keeps their screenshots in
# target/site-screenshots/, and fails when a page does not render: Chromium fails, the page's text lacks its
# heading, or the screenshot is blank. bin/test runs it after the tests (STRAND_NO_BUILD=1: the javadoc that
# mvn verify built); it runs alone too. The samples are compiled and run by strand-guide's tests.
set -euo pipefail
root=$(cd "$(dirname "$(readlink -f "$0")")/.." && pwd)
cd "$root"
started=$SECONDS
if ! command -v chromium >/dev/null; then # Debian's package; bin/test installs its other tools the same way
  apt-get update -qq >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
fi
bin/strand site

shots=target/site-screenshots
rm -rf "$shots"
mkdir -p "$shots"
profile=$(mktemp -d /tmp/strand-site-chromium.XXXXXX)
trap 'rm -rf "$profile"' EXIT
chrome=(chromium --headless --disable-gpu --hide-scrollbars --no-first-run --user-data-dir="$profile"
  --window-size=1280,2000 --virtual-time-budget=2000)
[ "$(id -u)" = 0 ] && chrome+=(--no-sandbox)
# page:the text its rendered DOM must contain (the page's first heading)
pages=(index.html:"Getting started" recipes.html:"Recipes" migrating.html:"Migrating to Strand"
  architecture.html:"Architecture" benchmarks.html:"Benchmarks" api/index.html:"API (javadoc)"
  api/strand-core/index.html:"strand")
failed=0
for entry in "${pages[@]}"; do
  page=${entry%%:*} heading=${entry#*:}
  url="file://$root/target/site/$page"
  png="$shots/$(echo "${page%.html}" | tr / -).png"
  if ! dom=$("${chrome[@]}" --dump-dom "$url" 2>"$shots/chromium.log"); then
    echo "site-check: chromium could not open $page:" >&2; tail -5 "$shots/chromium.log" >&2; failed=1; continue
  fi
  if ! grep -qF "$heading" <<<"$dom"; then
    echo "site-check: $page rendered without \"$heading\"" >&2; failed=1
  fi
  "${chrome[@]}" --screenshot="$png" "$url" >/dev/null 2>>"$shots/chromium.log" || true
  # A blank 1280×2000 page compresses to a few KiB; text, code and navigation make tens.
  if /usr/bin/python3 bin/lib/png_ink.py "$png"; then
    echo "site-check: $page rendered, $(stat -c %s "$png") bytes ($png)" >&2
  else
    failed=1
  fi
done
[ "$failed" = 0 ] || { echo "site-check: failed" >&2; exit 1; }
echo "site-check: the site builds, its links resolve and ${#pages[@]} pages render ($((SECONDS - started)) s)" >&2
