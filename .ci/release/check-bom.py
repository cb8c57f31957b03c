#!/usr/bin/env python3
"""strand-bom lists every published module, and only those.

Published: each module of the root pom that is not the BOM itself and does not set maven.deploy.skip
(strand-bench and strand-cli are tools run from this repository). The parent is published too (every
module's pom names it) but is no dependency, so the BOM leaves it out. Exits 1 with the difference.

  python3 .ci/release/check-bom.py [ROOT]
  python3 .ci/release/check-bom.py --list [ROOT]    prints the published modules, comma-separated
"""
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

NS = {"m": "http://maven.apache.org/POM/4.0.0"}


def published_modules(root: Path) -> set[str]:
    pom = ET.parse(root / "pom.xml").getroot()
    published = set()
    for module in pom.findall("m:modules/m:module", NS):
        child = ET.parse(root / module.text / "pom.xml").getroot()
        artifact = child.findtext("m:artifactId", namespaces=NS)
        skip = child.findtext("m:properties/m:maven.deploy.skip", namespaces=NS)
        if artifact != "strand-bom" and (skip or "").strip() != "true":
            published.add(artifact)
    return published


def bom_entries(root: Path) -> set[str]:
    bom = ET.parse(root / "strand-bom" / "pom.xml").getroot()
    entries = set()
    for dep in bom.findall("m:dependencyManagement/m:dependencies/m:dependency", NS):
        if dep.findtext("m:groupId", namespaces=NS) != "dev.strand":
            sys.exit(f"strand-bom: {dep.findtext('m:groupId', namespaces=NS)} is not Strand's")
        if dep.findtext("m:version", namespaces=NS) != "${project.version}":
            sys.exit(f"strand-bom: {dep.findtext('m:artifactId', namespaces=NS)} must be at ${{project.version}}")
        entries.add(dep.findtext("m:artifactId", namespaces=NS))
    return entries


def main() -> int:
    args = sys.argv[1:]
    if args[:1] == ["--list"]:
        print(",".join(sorted(published_modules(Path(args[1] if len(args) > 1 else ".")))))
        return 0
    root = Path(args[0] if args else ".")
    published, listed = published_modules(root), bom_entries(root)
    missing, extra = sorted(published - listed), sorted(listed - published)
    if missing:
        print(f"strand-bom misses published modules: {', '.join(missing)}", file=sys.stderr)
    if extra:
        print(f"strand-bom lists modules that are not published: {', '.join(extra)}", file=sys.stderr)
    if missing or extra:
        return 1
    print(f"strand-bom: lists all {len(published)} published modules: {', '.join(sorted(published))}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
