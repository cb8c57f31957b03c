#!/usr/bin/env python3
"""Renders the user guide (docs/guide/*.md, plus the reference pages listed below) into target/site/, beside
the javadoc that bin/lib/site.sh copied to target/site/api/<module>/, and checks every link.

  /usr/bin/python3 bin/lib/site.py [ROOT]

Directives in the guide's Markdown:
  @sample File#region     on a line of its own: the lines between `// region region` and `// endregion` in
                          strand-guide/src/test/java/dev/strand/guide/File.java, as a Java block. Those files
                          are compiled and run as tests by the strand-guide module, so a sample cannot rot.
  [text](api:dev.strand.Client)   a link to a class's javadoc page (#member anchors allowed), found in
                          whichever module's javadoc has it.
A literal ```java block in a guide page is an error (it would not be compiled); the reference pages' Java
blocks are compiled by strand-guide's ReferencePagesCompileTest.

Links between pages are written as links between the Markdown files (recipes.md#timeouts,
../tls-and-links.md); a link to another file of the repository goes to it on GitHub. Exits 1, naming each
problem, when an include is missing, a link points at no page, file or javadoc class, or an anchor at no
heading.
"""
import html
import re
import sys
import textwrap
from html.parser import HTMLParser
from pathlib import Path

import markdown

REPO_URL = "https://github.com/strand-dev/strand/blob/main/"
SAMPLES = Path("strand-guide/src/test/java/dev/strand/guide")
# (source, output, title in the navigation); the guide first, then the reference pages it links to.
GUIDE = [
    ("docs/guide/index.md", "index.html", "Getting started"),
    ("docs/guide/recipes.md", "recipes.html", "Recipes"),
    ("docs/guide/migrating.md", "migrating.html", "Migrating"),
    ("docs/guide/architecture.md", "architecture.html", "Architecture"),
    ("docs/guide/benchmarks.md", "benchmarks.html", "Benchmarks"),
]
REFERENCE = [
    ("docs/networks-proxies.md", "networks-proxies.html", "Networks and proxies"),
    ("docs/tls-and-links.md", "tls-and-links.html", "TLS and slow links"),
    ("strand-bench/README.md", "bench-method.html", "Benchmark method"),
    ("docs/fuzzing.md", "fuzzing.html", "Fuzzing"),
    ("docs/releasing.md", "releasing.html", "Releasing"),
    ("CHANGELOG.md", "changelog.html", "Changelog"),
]
PAGES = GUIDE + REFERENCE

CSS = """
:root { --fg: #1d2330; --muted: #5b6475; --accent: #0b6bcb; --bg-code: #f4f6f9; --line: #e1e5ec; }
* { box-sizing: border-box; }
body { margin: 0; font: 16px/1.6 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--fg); }
header { border-bottom: 1px solid var(--line); padding: 0.8rem 2rem; display: flex; gap: 1rem; align-items: baseline; }
header .brand { font-weight: 700; font-size: 1.2rem; color: var(--fg); text-decoration: none; }
header .tagline { color: var(--muted); font-size: 0.9rem; }
.layout { display: grid; grid-template-columns: 15rem minmax(0, 1fr); max-width: 80rem; margin: 0 auto; }
nav { padding: 1.5rem 1rem 1.5rem 2rem; border-right: 1px solid var(--line); font-size: 0.95rem; }
nav h2 { font-size: 0.75rem; text-transform: uppercase; letter-spacing: 0.06em; color: var(--muted); margin: 1.2rem 0 0.4rem; }
nav ul { list-style: none; padding: 0; margin: 0; }
nav li a { display: block; padding: 0.15rem 0.5rem; border-radius: 4px; color: var(--fg); text-decoration: none; }
nav li a:hover { background: var(--bg-code); }
nav li a.current { background: #e6f0fb; color: var(--accent); font-weight: 600; }
main { padding: 1.5rem 2.5rem 4rem; max-width: 60rem; }
main h1 { font-size: 2rem; margin-top: 0.5rem; }
main h2 { border-bottom: 1px solid var(--line); padding-bottom: 0.3rem; margin-top: 2.2rem; }
a { color: var(--accent); }
code { font: 0.88em/1.5 ui-monospace, "SFMono-Regular", Menlo, Consolas, monospace; background: var(--bg-code); padding: 0.1em 0.3em; border-radius: 3px; }
pre { background: var(--bg-code); border: 1px solid var(--line); border-radius: 6px; padding: 0.9rem 1rem; overflow-x: auto; }
pre code { background: none; padding: 0; font-size: 0.85em; }
pre.sample { border-left: 3px solid var(--accent); }
p.sample-source { margin: -0.7rem 0 1rem; font-size: 0.8rem; color: var(--muted); text-align: right; }
table { border-collapse: collapse; margin: 1rem 0; font-size: 0.92rem; display: block; overflow-x: auto; }
th, td { border: 1px solid var(--line); padding: 0.35rem 0.6rem; vertical-align: top; }
th { background: var(--bg-code); text-align: left; }
footer { color: var(--muted); font-size: 0.85rem; border-top: 1px solid var(--line); margin-top: 3rem; padding-top: 1rem; }
"""

problems: list[str] = []


def sample(root: Path, ref: str, where: str) -> str:
    name, _, region = ref.partition("#")
    path = root / SAMPLES / (name if name.endswith(".java") else name + ".java")
    if not path.is_file():
        problems.append(f"{where}: @sample {ref}: no file {path.relative_to(root)}")
        return ""
    lines = path.read_text(encoding="utf-8").splitlines()
    start = [i for i, l in enumerate(lines) if l.strip() == f"// region {region}"]
    if len(start) != 1:
        problems.append(f"{where}: @sample {ref}: {len(start)} regions named '{region}' in {path.name}")
        return ""
    end = next((i for i in range(start[0] + 1, len(lines)) if lines[i].strip() == "// endregion"), None)
    if end is None:
        problems.append(f"{where}: @sample {ref}: region '{region}' has no // endregion")
        return ""
    body = textwrap.dedent("\n".join(lines[start[0] + 1:end])).strip("\n")
    src = f"{SAMPLES.as_posix()}/{path.name}"
    return (f'<pre class="sample"><code class="language-java">{html.escape(body)}</code></pre>\n'
            f'<p class="sample-source">compiled and run as <a href="{REPO_URL}{src}">{path.stem}</a></p>\n')


def expand(root: Path, source: str, text: str, guide: bool) -> tuple[str, dict[str, str]]:
    """Replaces @sample lines by placeholders (Markdown must not touch the HTML); returns text and blocks."""
    blocks: dict[str, str] = {}
    out = []
    for n, line in enumerate(text.splitlines(), 1):
        m = re.fullmatch(r"@sample\s+(\S+)\s*", line)
        if m:
            key = f"STRANDSAMPLE{len(blocks)}X"
            blocks[key] = sample(root, m.group(1), f"{source}:{n}")
            out += ["", key, ""]
            continue
        if guide and re.match(r"\s*```\s*java", line):
            problems.append(f"{source}:{n}: a literal Java block; put it in {SAMPLES}/ and use @sample")
        out.append(line)
    return "\n".join(out) + "\n", blocks


class Links(HTMLParser):
    def __init__(self):
        super().__init__()
        self.hrefs: list[str] = []
        self.ids: set[str] = set()

    def handle_starttag(self, tag, attrs):
        for k, v in attrs:
            if k in ("href", "src") and v is not None:
                self.hrefs.append(v)
            if k in ("id", "name") and v:
                self.ids.add(v)


def javadoc_page(site: Path, cls: str) -> str | None:
    """The page of class `dev.strand.Client` (or `dev.strand.Client.Builder`) in any module's javadoc."""
    parts = cls.split(".")
    for i in range(len(parts) - 1, 0, -1):  # the package is the lower-case prefix
        if parts[i - 1][:1].islower():
            rel = "/".join(parts[:i]) + "/" + ".".join(parts[i:]) + ".html"
            hits = sorted((site / "api").glob(f"*/**/{rel}"))
            if hits:
                return hits[0].relative_to(site).as_posix()
            return None
    return None


def rewrite(root: Path, site: Path, source: str, body: str) -> str:
    src_dir = (root / source).parent
    by_source = {(root / s).resolve(): out for s, out, _ in PAGES}

    def fix(m: re.Match) -> str:
        href = html.unescape(m.group(2))
        if re.match(r"^[a-z][a-z0-9+.-]*:", href) and not href.startswith("api:"):
            return m.group(0)  # http:, https:, mailto:
        if href.startswith("api:"):
            cls, _, anchor = href[4:].partition("#")
            page = javadoc_page(site, cls)
            if page is None:
                problems.append(f"{source}: link to {href}: no javadoc page for {cls}")
                return m.group(0)
            return f'{m.group(1)}"{html.escape(page)}{"#" + anchor if anchor else ""}"'
        if href.startswith("#") or href.startswith("api/"):
            return m.group(0)
        path, _, anchor = href.partition("#")
        target = (src_dir / path).resolve()
        if target in by_source:
            out = by_source[target]
        elif target.exists() and root.resolve() in target.parents:
            out = REPO_URL + target.relative_to(root.resolve()).as_posix()
        else:
            problems.append(f"{source}: link to {href}: no such page or file")
            return m.group(0)
        return f'{m.group(1)}"{html.escape(out)}{"#" + anchor if anchor else ""}"'

    return re.sub(r'(href=)"([^"]*)"', fix, body)


def nav(current: str) -> str:
    def item(out: str, title: str) -> str:
        mark = ' class="current"' if out == current else ""
        return f'<li><a href="{out}"{mark}>{html.escape(title)}</a></li>'

    guide = "".join(item(out, title) for _, out, title in GUIDE)
    reference = "".join(item(out, title) for _, out, title in REFERENCE) + item("api/index.html", "API (javadoc)")
    return f"<h2>Guide</h2><ul>{guide}</ul><h2>Reference</h2><ul>{reference}</ul>"


def page(title: str, current: str, body: str, prefix: str = "") -> str:
    navigation = nav(current)
    if prefix:
        navigation = re.sub(r'href="(?!https?:)', f'href="{prefix}', navigation)
    return f"""<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{html.escape(title)} — Strand</title>
<link rel="stylesheet" href="{prefix}strand.css">
</head>
<body>
<header><a class="brand" href="{prefix}index.html">Strand</a>
<span class="tagline">An HTTP client for Java 21+: one API for sync and async, flat cost under load.</span></header>
<div class="layout">
<nav>{navigation}</nav>
<main>
{body}
<footer>Built from the repository by <code>bin/strand site</code>. The code samples are compiled and run as
tests (strand-guide).</footer>
</main>
</div>
</body>
</html>
"""


def check_links(site: Path) -> None:
    """Every relative href and src of our pages (not the javadoc's own) leads to a file, and #anchor to an id."""
    ids: dict[Path, set[str]] = {}

    def ids_of(p: Path) -> set[str]:
        if p not in ids:
            parser = Links()
            parser.feed(p.read_text(encoding="utf-8", errors="replace"))
            ids[p] = parser.ids
        return ids[p]

    ours = sorted(site.glob("*.html")) + [site / "api" / "index.html"]
    for p in ours:
        parser = Links()
        parser.feed(p.read_text(encoding="utf-8"))
        for href in parser.hrefs:
            if re.match(r"^[a-z][a-z0-9+.-]*:", href):
                continue
            path, _, anchor = href.partition("#")
            target = (p.parent / path).resolve() if path else p.resolve()
            name = p.relative_to(site)
            if not target.is_file():
                problems.append(f"{name}: broken link {href}")
            elif anchor and target.suffix == ".html" and anchor not in ids_of(target):
                problems.append(f"{name}: broken anchor {href}")


def api_index(site: Path) -> None:
    api = site / "api"
    modules = sorted(d.name for d in api.iterdir() if d.is_dir() and (d / "index.html").is_file()) \
        if api.is_dir() else []
    if not modules:
        problems.append("api/: no javadoc (bin/lib/site.sh copies each library module's target/reports/apidocs here)")
    rows = "\n".join(f'<li><a href="{m}/index.html"><code>{m}</code></a></li>' for m in modules)
    body = (f"<h1>API (javadoc)</h1>\n<p>One javadoc per published module. The public API is the exported "
            f"packages less <code>*.internal</code>; see <a href=\"../releasing.html\">Releasing</a> for the "
            f"compatibility policy.</p>\n<ul>\n{rows}\n</ul>\n")
    api.mkdir(parents=True, exist_ok=True)
    (api / "index.html").write_text(page("API", "api/index.html", body, prefix="../"), encoding="utf-8")


def main() -> int:
    root = Path(sys.argv[1] if len(sys.argv) > 1 else ".").resolve()
    site = root / "target" / "site"
    site.mkdir(parents=True, exist_ok=True)
    for stale in site.glob("*.html"):
        stale.unlink()
    (site / "strand.css").write_text(CSS.lstrip(), encoding="utf-8")
    guide_sources = {s for s, _, _ in GUIDE}
    for source, out, title in PAGES:
        text, blocks = expand(root, source, (root / source).read_text(encoding="utf-8"), source in guide_sources)
        md = markdown.Markdown(extensions=["fenced_code", "tables", "toc", "sane_lists"],
                               extension_configs={"toc": {"permalink": False}})
        body = md.convert(text)
        for key, block in blocks.items():
            body = body.replace(f"<p>{key}</p>", block)
        body = rewrite(root, site, source, body)
        (site / out).write_text(page(title, out, body), encoding="utf-8")
    api_index(site)
    check_links(site)
    for p in problems:
        print(f"site: {p}", file=sys.stderr)
    if problems:
        print(f"site: {len(problems)} problem(s); the site in {site} is incomplete", file=sys.stderr)
        return 1
    print(f"site: {len(PAGES)} pages and the javadoc in {site.relative_to(root)}, every link checked")
    return 0


if __name__ == "__main__":
    sys.exit(main())
