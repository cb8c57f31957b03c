#!/usr/bin/env python3
"""Checks a repository that `mvn deploy` wrote as Maven Central would take it.

For every dev.strand artifact at VERSION: a jar module has its jar, -sources.jar (with .java files) and
-javadoc.jar (with index.html); every file has a .asc that `gpg --verify` accepts (GNUPGHOME as set) and
.sha1/.md5 files that match; the pom, or the parent pom it names, gives name, description, url, licenses,
developers and scm; no pom names a SNAPSHOT; and the artifacts other than the parent and the BOM are exactly
those the BOM lists.

  python3 .ci/release/verify-repo.py REPO_DIR VERSION
"""
import hashlib
import subprocess
import sys
import xml.etree.ElementTree as ET
import zipfile
from pathlib import Path

NS = {"m": "http://maven.apache.org/POM/4.0.0"}
REQUIRED = ["name", "description", "url", "licenses/m:license/m:name", "developers/m:developer/m:name",
            "scm/m:url", "scm/m:connection"]
problems: list[str] = []


def pom_of(repo: Path, artifact: str, version: str) -> ET.Element:
    return ET.parse(repo / "dev/strand" / artifact / version / f"{artifact}-{version}.pom").getroot()


def check_metadata(repo: Path, artifact: str, version: str, pom: ET.Element) -> None:
    parent = None
    if pom.find("m:parent", NS) is not None:
        parent = pom_of(repo, pom.findtext("m:parent/m:artifactId", namespaces=NS), version)
    for field in REQUIRED:
        own = (pom.findtext(f"m:{field}", namespaces=NS) or "").strip()
        # name and description must be the module's own; the rest may come from the parent.
        inherited = "" if parent is None or field in ("name", "description") else (
            parent.findtext(f"m:{field}", namespaces=NS) or "").strip()
        if not (own or inherited):
            problems.append(f"{artifact}: pom has no {field.replace('m:', '')}")


def check_files(artifact_dir: Path) -> int:
    signed = 0
    for f in sorted(artifact_dir.iterdir()):
        if f.suffix in (".asc", ".md5", ".sha1", ".sha256", ".sha512"):
            continue
        data = f.read_bytes()
        for algo in ("md5", "sha1"):
            sum_file = f.with_name(f.name + "." + algo)
            if not sum_file.exists() or sum_file.read_text().split()[0] != hashlib.new(algo, data).hexdigest():
                problems.append(f"{f.name}: missing or wrong .{algo}")
        asc = f.with_name(f.name + ".asc")
        if not asc.exists():
            problems.append(f"{f.name}: not signed (no .asc)")
            continue
        verify = subprocess.run(["gpg", "--batch", "--verify", str(asc), str(f)], capture_output=True, text=True)
        if verify.returncode != 0:
            problems.append(f"{asc.name}: gpg --verify failed: {verify.stderr.strip()}")
        else:
            signed += 1
    return signed


def check_jars(artifact: str, version: str, artifact_dir: Path) -> None:
    base = artifact_dir / f"{artifact}-{version}"
    for suffix, wanted in ((".jar", ".class"), ("-sources.jar", ".java"), ("-javadoc.jar", "index.html")):
        jar = Path(f"{base}{suffix}")
        if not jar.exists():
            problems.append(f"{artifact}: no {jar.name}")
            continue
        with zipfile.ZipFile(jar) as z:
            if not any(n.endswith(wanted) for n in z.namelist()):
                problems.append(f"{jar.name}: holds no {wanted}")


def main() -> int:
    repo, version = Path(sys.argv[1]), sys.argv[2]
    group = repo / "dev/strand"
    deployed = sorted(d.name for d in group.iterdir() if (d / version).is_dir())
    signed = 0
    for artifact in deployed:
        artifact_dir = group / artifact / version
        pom = pom_of(repo, artifact, version)
        check_metadata(repo, artifact, version, pom)
        if "SNAPSHOT" in (artifact_dir / f"{artifact}-{version}.pom").read_text():
            problems.append(f"{artifact}: its pom names a SNAPSHOT version (Central takes releases only)")
        if (pom.findtext("m:packaging", namespaces=NS) or "jar") == "jar":
            check_jars(artifact, version, artifact_dir)
        signed += check_files(artifact_dir)
    bom = pom_of(repo, "strand-bom", version) if "strand-bom" in deployed else None
    if bom is None:
        problems.append("strand-bom was not deployed")
    else:
        listed = {d.findtext("m:artifactId", namespaces=NS)
                  for d in bom.findall("m:dependencyManagement/m:dependencies/m:dependency", NS)}
        libraries = set(deployed) - {"strand-parent", "strand-bom"}
        if listed != libraries:
            problems.append(f"deployed {sorted(libraries)} but the BOM lists {sorted(listed)}")
    for p in problems:
        print(f"verify-repo: {p}", file=sys.stderr)
    if problems:
        return 1
    print(f"verify-repo: {len(deployed)} artifacts at {version} ({', '.join(deployed)}); "
          f"{signed} signatures verified, checksums and Central's pom fields present")
    return 0


if __name__ == "__main__":
    sys.exit(main())
