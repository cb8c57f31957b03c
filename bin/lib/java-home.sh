# Sourced by bin/* and .ci/run: exports JAVA_HOME pointing at a JDK >= 21.
# Order: $JAVA_HOME if it is new enough, then the newest JDK under /usr/lib/jvm,
# then whatever `javac` on PATH belongs to. Never one hard-coded path.
# Shell built-ins only on the usual path (no sed, no subshells): every command line the CLI runs pays
# for this, and a process start costs milliseconds on a small VM.

strand_java_major() { # sets strand_major to the feature version of the JDK at $1, or to nothing
  local release="$1/release" line
  strand_major=
  [ -x "$1/bin/javac" ] || return 0
  if [ -f "$release" ]; then
    while IFS= read -r line; do
      if [[ $line =~ ^JAVA_VERSION=\"([0-9]+) ]]; then
        strand_major=${BASH_REMATCH[1]}
        return 0
      fi
    done <"$release"
  else
    strand_major=$("$1/bin/java" -XshowSettings:properties -version 2>&1 | sed -n 's/.*java.specification.version = \([0-9]*\).*/\1/p')
  fi
}

strand_find_jdk() { # sets strand_jdk, or fails
  local min=21 candidate best="" best_major=0
  strand_jdk=
  if [ -n "${JAVA_HOME:-}" ]; then
    strand_java_major "$JAVA_HOME"
    if [ -n "$strand_major" ] && [ "$strand_major" -ge "$min" ]; then strand_jdk=$JAVA_HOME; return 0; fi
  fi
  for candidate in /usr/lib/jvm/* /opt/java/* /opt/jdk*; do
    [ -d "$candidate" ] || continue
    strand_java_major "$candidate"
    if [ -n "$strand_major" ] && [ "$strand_major" -ge "$min" ] && [ "$strand_major" -gt "$best_major" ]; then
      best="$candidate"; best_major="$strand_major"
    fi
  done
  if [ -z "$best" ] && command -v javac >/dev/null 2>&1; then
    candidate=$(dirname "$(dirname "$(readlink -f "$(command -v javac)")")")
    strand_java_major "$candidate"
    if [ -n "$strand_major" ] && [ "$strand_major" -ge "$min" ]; then best="$candidate"; fi
  fi
  [ -n "$best" ] || { echo "strand: no JDK >= $min found (set JAVA_HOME, or install one under /usr/lib/jvm)" >&2; return 1; }
  strand_jdk=$best
}

strand_find_jdk || exit 1
JAVA_HOME=$strand_jdk
export JAVA_HOME
export PATH="$JAVA_HOME/bin:$PATH"
