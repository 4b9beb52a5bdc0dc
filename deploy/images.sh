#!/usr/bin/env bash
# deploy/images.sh: builds the eight service images with the parent pom's -Pimages (Jib, no Docker
# daemon), pushes them to a registry of its own on 127.0.0.1, and reads every manifest back.
#
#   deploy/images.sh            # reuse what an earlier run left in deploy/target/images (base image, registry storage, Jib caches)
#   deploy/images.sh --fresh    # start from nothing: new base image, empty registry, empty caches
#
# Steps: 1. installs what it lacks from Debian (docker-registry, skopeo, umoci, debootstrap, curl, jq;
# needs root for that and for debootstrap); 2. starts `docker-registry serve` on 127.0.0.1:$IMAGES_PORT
# (default 5000) with its storage under deploy/target/images/registry, stopped again on exit; 3. builds
# the JRE base image (Debian minbase + openjdk-17-jre-headless, user 185) and pushes it as
# telemed/jre:17-<suite>; 4. runs ./mvnw package -DskipTests -Pimages for the eight services, timed,
# FROM that base; 5. GETs /v2/telemed/<service>/manifests/<tag> for each and prints a table; exits
# non-zero if any image is missing or not what the profile promises (user 185, /deployments).
#
# Environment: IMAGES_PORT (5000), IMAGES_TAG (the project version), IMAGES_DEBIAN_SUITE (bookworm),
# IMAGES_DEBIAN_MIRROR (the first Debian mirror in this machine's apt sources).
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
WORK=$ROOT/deploy/target/images
PORT=${IMAGES_PORT:-5000}
REG=127.0.0.1:$PORT
SUITE=${IMAGES_DEBIAN_SUITE:-bookworm}
BASE_NAME=telemed/jre
BASE_TAG=17-$SUITE
SERVICES=(gateway requests-service members-service catalogue-service messaging-service billing-service webhook-service web-service)
TAG=${IMAGES_TAG:-$(sed -n 's:^  <version>\(.*\)</version>$:\1:p' "$ROOT/pom.xml" | head -n 1)}
ACCEPT='application/vnd.oci.image.manifest.v1+json, application/vnd.docker.distribution.manifest.v2+json, application/vnd.oci.image.index.v1+json, application/vnd.docker.distribution.manifest.list.v2+json'

say() { printf '==> %s\n' "$*"; }
die() { printf 'images.sh: %s\n' "$*" >&2; exit 1; }
now() { date +%s.%N; }
since() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }'; }

if [[ ${1:-} == --fresh ]]; then
  say "--fresh: removing $WORK"
  rm -rf "$WORK"
elif [[ $# -gt 0 ]]; then
  die "usage: deploy/images.sh [--fresh]"
fi
[[ -n $TAG ]] || die "no project version found in pom.xml; set IMAGES_TAG"
mkdir -p "$WORK"

# --- 1. tools ------------------------------------------------------------------------------------
install_missing() {
  local missing=() cmd pkg
  for pair in docker-registry:docker-registry skopeo:skopeo umoci:umoci debootstrap:debootstrap curl:curl jq:jq; do
    cmd=${pair%%:*} pkg=${pair#*:}
    command -v "$cmd" >/dev/null 2>&1 || missing+=("$pkg")
  done
  [[ ${#missing[@]} -eq 0 ]] && return 0
  [[ $(id -u) -eq 0 ]] || die "missing ${missing[*]}: run as root, or apt-get install them first"
  say "installing from Debian: ${missing[*]}"
  # The docker-registry package starts a system-wide registry on :5000 where an init system runs;
  # this script wants only its own, so services are kept from starting during the install.
  local policy=/usr/sbin/policy-rc.d own_policy=
  if [[ ! -e $policy ]]; then printf '#!/bin/sh\nexit 101\n' >"$policy"; chmod +x "$policy"; own_policy=1; fi
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null || { [[ -n $own_policy ]] && rm -f "$policy"; die "apt-get install failed"; }
  [[ -n $own_policy ]] && rm -f "$policy"
  return 0
}
install_missing

# --- 2. registry ---------------------------------------------------------------------------------
if curl -s -o /dev/null --max-time 2 "http://$REG/v2/"; then
  die "something already answers on $REG (a system-wide docker-registry?); stop it or set IMAGES_PORT"
fi
mkdir -p "$WORK/registry/data"
cat >"$WORK/registry/config.yml" <<EOF
version: 0.1
log:
  level: warn
  accesslog:
    disabled: true
storage:
  filesystem:
    rootdirectory: $WORK/registry/data
  delete:
    enabled: true
http:
  addr: $REG
EOF
docker-registry serve "$WORK/registry/config.yml" >"$WORK/registry/registry.log" 2>&1 &
REG_PID=$!
stop_registry() {
  if kill -0 "$REG_PID" 2>/dev/null; then
    kill "$REG_PID" 2>/dev/null || true
    wait "$REG_PID" 2>/dev/null || true
    say "registry stopped (pid $REG_PID)"
  fi
}
trap stop_registry EXIT
for _ in $(seq 1 50); do
  curl -fs -o /dev/null "http://$REG/v2/" && break
  kill -0 "$REG_PID" 2>/dev/null || { cat "$WORK/registry/registry.log" >&2; die "the registry did not start"; }
  sleep 0.2
done
curl -fs -o /dev/null "http://$REG/v2/" || die "the registry does not answer on $REG"
say "registry on http://$REG (pid $REG_PID, storage $WORK/registry/data)"

# --- 3. base image -------------------------------------------------------------------------------
# Debian minbase plus the JRE, as a single-layer OCI image: user 185 (group 0), /deployments, the
# JRE on PATH. Jib builds each service FROM it exactly as it would FROM a public JRE image.
OCI=$WORK/base/oci
if [[ -f $OCI/index.json ]] && umoci ls --layout "$OCI" 2>/dev/null | grep -qx "$BASE_TAG"; then
  say "base image: reusing $OCI:$BASE_TAG (--fresh rebuilds it)"
else
  [[ $(id -u) -eq 0 ]] || die "building the base image needs root (debootstrap, chroot)"
  mirror=${IMAGES_DEBIAN_MIRROR:-$(grep -h -E '^(URIs:|deb )' /etc/apt/sources.list.d/*.sources /etc/apt/sources.list 2>/dev/null |
    grep -v -e security -e '\[' | sed -E 's/^URIs:[[:space:]]*//; s/^deb[[:space:]]+//' | awk '{ print $1; exit }' || true)}
  [[ -n $mirror ]] || die "no Debian mirror in the apt sources; set IMAGES_DEBIAN_MIRROR"
  t0=$(now)
  rm -rf "$WORK/base"
  mkdir -p "$WORK/base"
  BUNDLE=$WORK/base/bundle
  umoci init --layout "$OCI"
  umoci new --image "$OCI:$BASE_TAG"
  umoci unpack --image "$OCI:$BASE_TAG" "$BUNDLE" >/dev/null
  say "base image: debootstrap $SUITE minbase + openjdk-17-jre-headless from $mirror (a few minutes)"
  debootstrap --variant=minbase --include=openjdk-17-jre-headless "$SUITE" "$BUNDLE/rootfs" "$mirror" \
    >"$WORK/base/debootstrap.log" 2>&1 || { tail -n 20 "$WORK/base/debootstrap.log" >&2; die "debootstrap failed"; }
  rootfs=$BUNDLE/rootfs
  grep -q '^app:' "$rootfs/etc/passwd" || echo 'app:x:185:0:telemed service:/deployments:/usr/sbin/nologin' >>"$rootfs/etc/passwd"
  mkdir -p "$rootfs/deployments"
  chown 185:0 "$rootfs/deployments"
  chmod 0775 "$rootfs/deployments"
  # What a runtime image does not need: downloaded packages, package lists, manuals, translations
  # (the copyright files stay).
  rm -rf "$rootfs"/var/cache/apt/archives/*.deb "$rootfs"/var/cache/apt/*.bin "$rootfs"/var/lib/apt/lists/* \
    "$rootfs"/usr/share/man/* "$rootfs"/usr/share/info/* "$rootfs"/usr/share/locale/* "$rootfs"/var/log/*
  find "$rootfs/usr/share/doc" -type f ! -name copyright -delete
  find "$rootfs/usr/share/doc" -depth -type d -empty -delete
  java_home=$(cd "$rootfs" && ls -d usr/lib/jvm/java-17-openjdk-* | head -n 1)
  [[ -x $rootfs/$java_home/bin/java ]] || die "no JRE in the base rootfs"
  umoci repack --image "$OCI:$BASE_TAG" "$BUNDLE"
  umoci config --image "$OCI:$BASE_TAG" --os linux --architecture "$(dpkg --print-architecture)" \
    --config.user 185 --config.workingdir /deployments \
    --config.env PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
    --config.env "JAVA_HOME=/$java_home" --config.env LANG=C.UTF-8 \
    --config.cmd java --config.cmd -version \
    --author telemed/deploy/images.sh --history.created_by "debootstrap --variant=minbase --include=openjdk-17-jre-headless $SUITE"
  umoci gc --layout "$OCI"
  rm -rf "$BUNDLE"
  say "base image: built in $(since "$t0") s"
fi
t0=$(now)
skopeo copy --quiet --dest-tls-verify=false "oci:$OCI:$BASE_TAG" "docker://$REG/$BASE_NAME:$BASE_TAG"
say "base image: pushed $REG/$BASE_NAME:$BASE_TAG in $(since "$t0") s"

# --- 4. the eight images -------------------------------------------------------------------------
modules=$(IFS=,; echo "${SERVICES[*]}")
mvn_cmd=("$ROOT/mvnw" -B package -DskipTests -Pimages -pl "$modules" -am
  "-Dimages.registry=$REG" -Dimages.insecure=true "-Dimages.tag=$TAG"
  "-Dimages.base-jvm-image=$REG/$BASE_NAME:$BASE_TAG"
  "-Dquarkus.jib.platforms=linux/$(dpkg --print-architecture)"
  "-Dquarkus.jib.base-image-layers-cache=$WORK/jib-cache/base"
  "-Dquarkus.jib.application-layers-cache=$WORK/jib-cache/application")
say "building: ${mvn_cmd[*]#"$ROOT/"}"
t0=$(now)
if ! (cd "$ROOT" && "${mvn_cmd[@]}") >"$WORK/build.log" 2>&1; then
  grep -E 'ERROR|FAIL' "$WORK/build.log" | head -n 40 >&2
  die "the build failed (whole log: $WORK/build.log)"
fi
build_s=$(since "$t0")
grep -E 'Pushed container image|Reactor Summary|SUCCESS \[|BUILD SUCCESS|Total time' "$WORK/build.log" | sed 's/^\[INFO\] //; s/^\[io.quarkus[^]]*\] //'
say "total build time of the eight images (./mvnw, wall clock): $build_s s"

# --- 5. read every manifest back -----------------------------------------------------------------
manifest() { # repo tag -> writes $WORK/check/<name>.{json,headers}; prints the body's file
  local repo=$1 ref=$2 file=$WORK/check/${1//\//_}
  curl -fsS -H "Accept: $ACCEPT" -D "$file.headers" -o "$file.json" "http://$REG/v2/$repo/manifests/$ref" || return 1
  echo "$file.json"
}
mkdir -p "$WORK/check"
rm -f "$WORK/check"/*
base_json=$(manifest "$BASE_NAME" "$BASE_TAG") || die "the base image's manifest cannot be read back"
base_layers=$(jq -c '[.layers[].digest]' "$base_json")
printf '\n%-18s %-71s %-46s %6s %12s %9s %9s %5s %s\n' SERVICE DIGEST MEDIA-TYPE LAYERS BYTES MiB OWN-MiB USER WORKDIR
failed=0
for repo in "$BASE_NAME" "${SERVICES[@]/#/telemed/}"; do
  ref=$TAG; [[ $repo == "$BASE_NAME" ]] && ref=$BASE_TAG
  name=${repo#telemed/}; [[ $repo == "$BASE_NAME" ]] && name="($repo base)"
  if ! json=$(manifest "$repo" "$ref" 2>/dev/null); then
    printf '%-18s MISSING: GET /v2/%s/manifests/%s failed\n' "$name" "$repo" "$ref"
    failed=1; continue
  fi
  digest=$(tr -d '\r' <"${json%.json}.headers" | awk 'tolower($1) == "docker-content-digest:" { print $2 }')
  [[ $digest == "sha256:$(sha256sum "$json" | cut -d' ' -f1)" ]] || { echo "$name: digest header $digest does not match the body"; failed=1; }
  # (an OCI manifest may leave mediaType out of its body; the response's Content-Type still says it)
  media=$(jq -r '.mediaType // empty' "$json")
  [[ -n $media ]] || media=$(tr -d '\r' <"${json%.json}.headers" | awk 'tolower($1) == "content-type:" { print $2 }')
  layers=$(jq '.layers | length' "$json")
  bytes=$(jq '.config.size + ([.layers[].size] | add)' "$json")
  own=$(jq --argjson base "$base_layers" '[.layers[] | select(.digest as $d | $base | index($d) | not) | .size] | add // 0' "$json")
  config=$(curl -fsS "http://$REG/v2/$repo/blobs/$(jq -r .config.digest "$json")")
  user=$(jq -r '.config.User // ""' <<<"$config")
  workdir=$(jq -r '.config.WorkingDir // ""' <<<"$config")
  printf '%-18s %-71s %-46s %6s %12s %9.1f %9.1f %5s %s\n' "$name" "$digest" "$media" "$layers" "$bytes" \
    "$(awk -v b="$bytes" 'BEGIN { print b / 1048576 }')" \
    "$(awk -v b="$own" 'BEGIN { print b / 1048576 }')" "$user" "$workdir"
  if [[ $repo != "$BASE_NAME" ]]; then
    [[ $user == 185 && $workdir == /deployments ]] || { echo "$name: expected user 185 in /deployments"; failed=1; }
    [[ $(jq -r '.config.Entrypoint | join(" ")' <<<"$config") == *"-jar quarkus-run.jar" ]] || { echo "$name: unexpected entrypoint"; failed=1; }
  fi
done
echo "(BYTES: config + layers, compressed, as pushed; OWN-MiB: the layers not shared with the base image)"
if [[ $failed -ne 0 ]]; then
  die "registry check failed"
fi
say "registry check: all ${#SERVICES[@]} images present at $REG, tag $TAG; build $build_s s"
