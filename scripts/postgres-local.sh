#!/usr/bin/env bash
# A local PostgreSQL for zohn-ahl on Debian, with or without a service manager
# (a container has none): as root, or as a user who may sudo.
#
#   scripts/postgres-local.sh        # prints the --database-url to use (nothing else on stdout)
#   scripts/postgres-local.sh stop   # stops the cluster again
#
# 1. Installs Debian's `postgresql` if no PostgreSQL server is installed (one
#    that is installed is used as it is: .ci/run installs its pinned build first).
# 2. Starts the cluster `VERSION/main` of the newest version installed
#    (pg_ctlcluster; pg_createcluster first if it does not exist), whether or
#    not a service manager runs.
# 3. Makes a role that may log in with a password, and a database it owns,
#    without asking anything: the password is ZOHN_AHL_PG_PASSWORD if given,
#    else the one this script made before, else a new random one; it is kept
#    (mode 600) in the postgres user's home, so a second run prints the same URL.
# 4. Checks that the role can log in over TCP, then prints
#    postgres://ROLE:PASSWORD@localhost:PORT/DATABASE.
#
# Running it again changes nothing (the password is set again to the same).
# Settings (environment): ZOHN_AHL_PG_ROLE (default zohn), ZOHN_AHL_PG_DATABASE
# (default zohn_ahl), ZOHN_AHL_PG_PASSWORD (letters, digits and . _ ~ - only,
# since it goes into the URL as it is), ZOHN_AHL_PG_CLUSTER (VERSION/NAME, e.g.
# 15/main).
set -euo pipefail

say() { echo "postgres-local: $*" >&2; }
fail() { say "$*"; exit 1; }

role="${ZOHN_AHL_PG_ROLE:-zohn}"
database="${ZOHN_AHL_PG_DATABASE:-zohn_ahl}"
[[ "$role" =~ ^[a-z_][a-z0-9_]*$ ]] || fail "ZOHN_AHL_PG_ROLE must be lower-case letters, digits and _ (got '$role')"
[[ "$database" =~ ^[a-z_][a-z0-9_]*$ ]] || fail "ZOHN_AHL_PG_DATABASE must be lower-case letters, digits and _ (got '$database')"
if [ -n "${ZOHN_AHL_PG_PASSWORD:-}" ] && ! [[ "$ZOHN_AHL_PG_PASSWORD" =~ ^[A-Za-z0-9._~-]+$ ]]; then
  fail "ZOHN_AHL_PG_PASSWORD may hold letters, digits and . _ ~ - only (it goes into the URL as it is)"
fi

if [ "$(id -u)" -eq 0 ]; then
  as_root=()
  as_postgres=(runuser -u postgres --)
elif command -v sudo > /dev/null; then
  as_root=(sudo)
  as_postgres=(sudo -u postgres --)
else
  fail "run as root, or as a user who may sudo"
fi

newest_version() {
  ls /usr/lib/postgresql 2> /dev/null | grep -E '^[0-9]+$' | sort -n | tail -n 1 || true
}

# 1. The server, from Debian's packages, if none is installed.
if [ -z "$(newest_version)" ] || ! command -v pg_ctlcluster > /dev/null; then
  say "installing Debian's postgresql"
  "${as_root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -qq
  "${as_root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends postgresql >&2
fi
cluster="${ZOHN_AHL_PG_CLUSTER:-$(newest_version)/main}"
version="${cluster%%/*}"
name="${cluster#*/}"
[ -x "/usr/lib/postgresql/$version/bin/postgres" ] || fail "PostgreSQL $version is not installed (ZOHN_AHL_PG_CLUSTER=$cluster)"

# The cluster's status and port as pg_lsclusters shows them (empty if it does not exist).
status() { pg_lsclusters -h "$version" "$name" 2> /dev/null | awk '{print $4}' || true; }
port() { pg_lsclusters -h "$version" "$name" | awk '{print $3}'; }

if [ "${1:-}" = stop ]; then
  if [ "$(status)" = online ]; then
    "${as_root[@]}" pg_ctlcluster "$version" "$name" stop
    say "stopped cluster $version/$name"
  else
    say "cluster $version/$name is not running"
  fi
  exit 0
fi
[ $# -eq 0 ] || fail "usage: $0 [stop]"

# 2. The cluster, started by hand (no service manager needed).
if [ -z "$(status)" ]; then
  say "creating cluster $version/$name"
  "${as_root[@]}" pg_createcluster "$version" "$name" >&2
fi
if [ "$(status)" != online ]; then
  say "starting cluster $version/$name"
  "${as_root[@]}" pg_ctlcluster "$version" "$name" start
fi
[ "$(status)" = online ] || fail "cluster $version/$name did not start (see /var/log/postgresql/postgresql-$version-$name.log)"
port="$(port)"

# 3. The role, its password and its database, without a prompt.
home="$(getent passwd postgres | cut -d: -f6)"
kept="$home/zohn-ahl-$role.password"
if [ -n "${ZOHN_AHL_PG_PASSWORD:-}" ]; then
  password="$ZOHN_AHL_PG_PASSWORD"
elif "${as_postgres[@]}" test -s "$kept"; then
  password="$("${as_postgres[@]}" cat "$kept")"
else
  password="$(od -An -tx1 -N16 /dev/urandom | tr -d ' \n')"
fi
printf '%s\n' "$password" | "${as_postgres[@]}" sh -c 'umask 077 && cat > "$1"' sh "$kept"
# psql's variables quote the names and the password (:"role", :'pw'); \gexec
# runs CREATE only for what is missing (CREATE DATABASE cannot run in a DO block).
"${as_postgres[@]}" psql -X -q -v ON_ERROR_STOP=1 -p "$port" -d postgres \
  -v role="$role" -v database="$database" -v pw="$password" > /dev/null <<'SQL'
SELECT format('CREATE ROLE %I', :'role')
  WHERE NOT EXISTS (SELECT FROM pg_roles WHERE rolname = :'role') \gexec
ALTER ROLE :"role" LOGIN PASSWORD :'pw';
SELECT format('CREATE DATABASE %I OWNER %I', :'database', :'role')
  WHERE NOT EXISTS (SELECT FROM pg_database WHERE datname = :'database') \gexec
SQL

# 4. The URL, once the role has logged in with it over TCP.
url="postgres://$role:$password@localhost:$port/$database"
PGPASSWORD="$password" psql -X -q -w -h localhost -p "$port" -U "$role" -d "$database" \
  -c 'SELECT 1' > /dev/null || fail "the role $role cannot log in to $database on localhost:$port"
say "cluster $version/$name on port $port; role $role owns database $database (password kept in $kept)"
echo "$url"
