#!/bin/sh
# Lighthouse scores of the home page, a record page and the search page of
# content/ built without a base URL, served on loopback, in headless
# Chromium, with Lighthouse's desktop settings. Prints one line a page:
# performance, accessibility, best-practices and seo (0-100), the metrics
# behind performance, and any failing accessibility, best-practices or SEO
# audit.
#
#   scripts/lighthouse.sh [RUNS]     (default 3 runs a page; the median is shown)
#
# Needs Go, Node 18+, python3 (the loopback server) and Chromium
# ($CHROME_PATH, else /usr/bin/chromium). Lighthouse is installed with npm
# into $LIGHTHOUSE_DIR (default .errdocs-cache/lighthouse) the first time.
# Performance depends on how busy the machine is: run it on a quiet one.
set -eu
runs=${1:-3}
root=$(cd "$(dirname "$0")/.." && pwd)
lh=${LIGHTHOUSE_DIR:-$root/.errdocs-cache/lighthouse}
export CHROME_PATH=${CHROME_PATH:-/usr/bin/chromium}
port=${PORT:-8913}
if [ ! -x "$lh/node_modules/.bin/lighthouse" ]; then
	mkdir -p "$lh"
	(cd "$lh" && npm install --no-audit --no-fund --silent lighthouse@12)
fi
work=$(mktemp -d)
server=
trap 'test -n "$server" && kill "$server" 2>/dev/null; rm -rf "$work"' EXIT
(cd "$root" && go build -o "$work/errdocs" ./cmd/errdocs)
"$work/errdocs" build "$root/content" --out "$work/site" --cache "$work/cache" --quiet
(cd "$work/site" && exec python3 -m http.server "$port" --bind 127.0.0.1 >/dev/null 2>&1) &
server=$!
sleep 1
# A record page meant for search engines (thin pages say noindex).
record=$(cd "$work/site" && for d in $(ls -d */*/*/ | grep -v -e '^tags/' -e '^families/' -e '^search/' -e '/page/'); do
	grep -q 'name="robots"' "$d/index.html" || { echo "$d"; break; }
done)
for page in "" "$record" "search/?q=channels"; do
	for i in $(seq "$runs"); do
		"$lh/node_modules/.bin/lighthouse" "http://127.0.0.1:$port/$page" --preset=desktop --quiet \
			--chrome-flags="--headless=new --no-sandbox --disable-gpu" \
			--output=json --output-path="$work/run-$i.json" >/dev/null 2>&1
	done
	node - "$page" "$work" "$runs" <<'JS'
const [page, dir, runs] = process.argv.slice(2);
const reports = [];
for (let i = 1; i <= +runs; i++) reports.push(require(`${dir}/run-${i}.json`));
const score = (r, k) => Math.round(r.categories[k].score * 100);
reports.sort((a, b) => score(a, "performance") - score(b, "performance"));
const r = reports[Math.floor(reports.length / 2)];
const cats = ["performance", "accessibility", "best-practices", "seo"];
const metrics = ["first-contentful-paint", "largest-contentful-paint", "total-blocking-time", "cumulative-layout-shift", "speed-index"];
console.log(`/${page}: ` + cats.map(k => `${k} ${score(r, k)}`).join(", ") +
  ` (performance of ${runs} runs: ${reports.map(x => score(x, "performance")).join(" ")}); ` +
  metrics.map(m => `${m.replace(/-/g, " ")} ${r.audits[m].displayValue}`).join(", "));
for (const k of cats.slice(1))
  for (const ref of r.categories[k].auditRefs) {
    const a = r.audits[ref.id];
    if (ref.weight > 0 && a.score !== null && a.score < 1) console.log(`  ${k}: ${a.id}: ${a.title}`);
  }
JS
done
