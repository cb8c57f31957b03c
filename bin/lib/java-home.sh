# Sourced by bin/* and .ci/run: exports JAVA_HOME pointing at a JDK >= 21.
# Order: $JAVA_HOME if it is new enough, then the newest JDK under /usr/lib/jvm,
# then whatever `javac` on PATH belongs to. Never one hard-coded path.

strand_java_major() { # prints the feature version of the JDK at $1, or nothing
  local release="$1/release" v
  [ -x "$1/bin/javac" ] || return 0
  if [ -f "$release" ]; then
    v=$(sed -n 's/^JAVA_VERSION="\([0-9]*\).*/\1/p' "$release")
  else
    v=$("$1/bin/java" -XshowSettings:properties -version 2>&1 | sed -n 's/.*java.specification.version = \([0-9]*\).*/\1/p')
  fi
  echo "$v"
}

strand_find_jdk() {
  local min=21 candidate major best="" best_major=0
  if [ -n "${JAVA_HOME:-}" ]; then
    major=$(strand_java_major "$JAVA_HOME")
    if [ -n "$major" ] && [ "$major" -ge "$min" ]; then echo "$JAVA_HOME"; return 0; fi
  fi
  for candidate in /usr/lib/jvm/* /opt/java/* /opt/jdk*; do
    [ -d "$candidate" ] || continue
    major=$(strand_java_major "$candidate")
    if [ -n "$major" ] && [ "$major" -ge "$min" ] && [ "$major" -gt "$best_major" ]; then
      best="$candidate"; best_major="$major"
    fi
  done
  if [ -z "$best" ] && command -v javac >/dev/null 2>&1; then
    candidate=$(dirname "$(dirname "$(readlink -f "$(command -v javac)")")")
    major=$(strand_java_major "$candidate")
    if [ -n "$major" ] && [ "$major" -ge "$min" ]; then best="$candidate"; fi
  fi
  [ -n "$best" ] || { echo "strand: no JDK >= $min found (set JAVA_HOME, or install one under /usr/lib/jvm)" >&2; return 1; }
  echo "$best"
}

JAVA_HOME=$(strand_find_jdk) || exit 1
export JAVA_HOME
export PATH="$JAVA_HOME/bin:$PATH"
