#!/usr/bin/env bash
# Replays the Dockerfile without Docker, so that a broken image shows up where Docker cannot run:
# each stage gets a fresh directory standing for its root filesystem, COPY copies from the build
# context (or an earlier stage), RUN runs there, and the final stage's CMD is started with dummy
# App credentials on a free loopback port until its HEALTHCHECK passes.
# Understands the instructions this Dockerfile uses and stops at any other, so it cannot silently
# skip a step. Needs node and npm (the same major version as the image) and npm's registry or cache.
#
#   scripts/docker-steps.sh [Dockerfile]
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
DOCKERFILE=${1:-$ROOT/Dockerfile}
# The one exact Node pin of the project; the image, CI and the docs follow it.
NODE_PIN=$(tr -d '[:space:]' <"$ROOT/.node-version")
WORK=$(mktemp -d "${TMPDIR:-/tmp}/gpu-justify-docker-steps.XXXXXX")
APP_PID=''

cleanup() {
  if [[ -n $APP_PID ]]; then kill "$APP_PID" 2>/dev/null || true; wait "$APP_PID" 2>/dev/null || true; fi
  rm -rf "$WORK"
}
trap cleanup EXIT

say() { printf 'docker-steps: %s\n' "$*" >&2; }
die() { say "FAILED: $*"; exit 1; }

# npm's cache is reused (read-only for the user's copy: a hard-linked clone, so the image's
# `npm cache clean --force` empties only the clone) and nothing else of the host's npm set-up.
CACHE=$(npm config get cache)
mkdir -p "$WORK/home"
if [[ -d $CACHE ]]; then cp -al "$CACHE" "$WORK/npm-cache" 2>/dev/null || cp -a "$CACHE" "$WORK/npm-cache"; fi
BASE_ENV=(PATH="$PATH" HOME="$WORK/home" npm_config_cache="$WORK/npm-cache" npm_config_prefer_offline=true
  npm_config_update_notifier=false)

# --- Read the Dockerfile: drop comments, join continued lines. ---
instructions=()
buf=''
while IFS= read -r line || [[ -n $line ]]; do
  [[ $line =~ ^[[:space:]]*# ]] && continue
  if [[ $line =~ \\[[:space:]]*$ ]]; then buf+="${line%\\*} "; continue; fi
  buf+=$line
  [[ -n ${buf//[[:space:]]/} ]] && instructions+=("$buf")
  buf=''
done <"$DOCKERFILE"
[[ -z ${buf//[[:space:]]/} ]] || die "the Dockerfile ends inside a continued line"

declare -A STAGE_ROOT=()
stage=0
root=''
workdir='/'
stage_env=()
user=''
cmd_json=''
health_json=''

in_stage() { # container path -> host path in this stage's root
  local path=$1
  [[ $path == /* ]] || path="${workdir%/}/$path"
  printf '%s%s' "$root" "$path"
}

copy() { # COPY [--from=stage] [--chown=…] src… dest
  local from='' words=() src dest base target
  read -ra words <<<"$1"
  while [[ ${words[0]} == --* ]]; do
    case ${words[0]} in
      --from=*) from=${words[0]#--from=} ;;
      --chown=* | --chmod=*) ;; # ownership: the replay runs as one user
      *) die "COPY option ${words[0]} is not replayed" ;;
    esac
    words=("${words[@]:1}")
  done
  ((${#words[@]} >= 2)) || die "COPY needs a source and a destination: $1"
  dest=$(in_stage "${words[-1]}")
  if [[ -n $from ]]; then
    [[ -n ${STAGE_ROOT[$from]:-} ]] || die "COPY --from=$from names no earlier stage"
    base=${STAGE_ROOT[$from]}
  else
    base=$ROOT
  fi
  for src in "${words[@]:0:${#words[@]}-1}"; do
    target=$base/${src#/}
    [[ -e $target ]] || die "COPY source $src does not exist"
    if [[ -d $target ]]; then
      mkdir -p "$dest" && cp -a "$target/." "$dest/"
    elif [[ ${words[-1]} == */ ]]; then
      mkdir -p "$dest" && cp -a "$target" "$dest/"
    else
      mkdir -p "$(dirname "$dest")" && cp -a "$target" "$dest"
    fi
  done
}

for ins in "${instructions[@]}"; do
  read -r op rest <<<"$ins"
  case ${op^^} in
    FROM)
      read -r image as name extra <<<"$rest"
      [[ $image == node:$NODE_PIN-* ]] || die "the base image $image is not pinned to the Node release of .node-version (node:$NODE_PIN-…)"
      stage=$((stage + 1))
      root=$WORK/stage-$stage
      mkdir -p "$root"
      workdir='/'
      stage_env=()
      user=''
      [[ -n ${name:-} ]] && STAGE_ROOT[$name]=$root
      STAGE_ROOT[$((stage - 1))]=$root
      say "stage $stage ${name:+($name) }from $image"
      ;;
    WORKDIR)
      workdir=$rest
      mkdir -p "$(in_stage .)"
      ;;
    ENV)
      read -ra pairs <<<"$rest"
      for pair in "${pairs[@]}"; do
        [[ $pair == *=* ]] || die "ENV $pair: only KEY=value is replayed"
        stage_env+=("$pair")
      done
      ;;
    COPY) copy "$rest" ;;
    RUN)
      [[ $rest != \[* ]] || die "RUN in exec form is not replayed"
      say "RUN $rest"
      (cd "$(in_stage .)" && env -i "${BASE_ENV[@]}" "${stage_env[@]}" sh -c "$rest") || die "RUN $rest"
      ;;
    USER) user=$rest ;;
    EXPOSE | LABEL) ;;
    HEALTHCHECK)
      read -ra words <<<"$rest"
      while [[ ${words[0]} == --* ]]; do words=("${words[@]:1}"); done
      [[ ${words[0]} == CMD ]] || die "HEALTHCHECK must run a command"
      health_json=${rest#*CMD }
      ;;
    CMD) cmd_json=$rest ;;
    *) die "$op is not replayed; teach scripts/docker-steps.sh about it" ;;
  esac
done

# --- What the final stage must be. ---
((stage >= 2)) || die "expected a build stage and a run stage"
[[ -n $user && ${user%%:*} != root && ${user%%:*} != 0 ]] || die "the image must run as a non-root USER"
[[ -n $cmd_json && -n $health_json ]] || die "the image needs a CMD and a HEALTHCHECK"
app=$(in_stage .)
[[ -f $app/dist/github/app/server.js ]] || die "the image has no dist/github/app/server.js"
node -e '
  const lock = require(process.argv[1]);
  const dev = Object.keys(lock.packages).filter((p) => lock.packages[p].dev);
  if (dev.length > 0) { console.error("dev dependencies in the image: " + dev.slice(0, 5).join(", ")); process.exit(1); }
' "$app/node_modules/.package-lock.json" || die "the run stage installs dev dependencies"
for dir in src test node_modules/typescript node_modules/typescript-native node_modules/vitest; do
  [[ ! -e $app/$dir ]] || die "the image holds $dir"
done

json_words() { node -e 'const a = JSON.parse(process.argv[1]); if (!Array.isArray(a)) process.exit(1); process.stdout.write(a.join("\0") + "\0")' "$1"; }
mapfile -d '' cmd < <(json_words "$cmd_json") || die "CMD must be a JSON array"
mapfile -d '' health < <(json_words "$health_json") || die "HEALTHCHECK CMD must be a JSON array"
((${#cmd[@]} > 0 && ${#health[@]} > 0)) || die "CMD and HEALTHCHECK CMD must not be empty"

# --- The CLI works from the image. ---
(cd "$app" && env -i "${BASE_ENV[@]}" "${stage_env[@]}" node bin/gpu-justify.js demo) >"$WORK/demo.md" ||
  die "gpu-justify demo failed in the image"
grep -q 'gpu-justify:comment' "$WORK/demo.md" || die "gpu-justify demo printed no comment"
say "gpu-justify demo ok"

# --- Start the App with dummy credentials and wait for its health check. ---
port=$(node -e 'const s = require("net").createServer().listen(0, "127.0.0.1", () => { console.log(s.address().port); s.close(); })')
key=$(node -e 'const { generateKeyPairSync } = require("crypto");
  process.stdout.write(generateKeyPairSync("rsa", { modulusLength: 2048 }).privateKey.export({ type: "pkcs1", format: "pem" }))')
RUN_ENV=(env -i "${BASE_ENV[@]}" "${stage_env[@]}" HOST=127.0.0.1 PORT="$port" APP_ID=1 PRIVATE_KEY="$key"
  WEBHOOK_SECRET=docker-steps-secret LOG_LEVEL=warn)

healthy() { (cd "$app" && "${RUN_ENV[@]}" "${health[@]}") >/dev/null 2>&1; }
! healthy || die "the health check passes with no App running (port $port)"

(cd "$app" && exec "${RUN_ENV[@]}" "${cmd[@]}") >"$WORK/app.log" 2>&1 &
APP_PID=$!
for _ in $(seq 1 60); do
  if healthy; then break; fi
  kill -0 "$APP_PID" 2>/dev/null || { cat "$WORK/app.log" >&2; die "the App exited"; }
  sleep 0.5
done
healthy || { cat "$WORK/app.log" >&2; die "the health check never passed"; }
say "health check passes on 127.0.0.1:$port"

# The App's webhook route is mounted and refuses an unsigned delivery.
status=$(node -e '
  fetch(process.argv[1], { method: "POST", headers: { "content-type": "application/json", "x-github-event": "ping", "x-github-delivery": "1" }, body: "{}" })
    .then((r) => console.log(r.status), () => console.log("unreachable"))' "http://127.0.0.1:$port/api/github/webhooks")
[[ $status == 400 ]] || die "an unsigned webhook got $status, expected 400"
say "unsigned webhook refused (400)"
say "ok"
