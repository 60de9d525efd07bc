# Sourced by the scale benches: a throwaway PostgreSQL server in "$work/pg", reached over its
# Unix socket, and over TCP at ADDRESS where one is given.
#   start_postgres PORT [ADDRESS]
#                         starts it and sets the array `psql`; fails if PostgreSQL is missing
#                         ($PG_OPTIONS: more server options, e.g. "-c wal_level=minimal")
#   stop_postgres         stops it (harmless if it never started)

start_postgres() {
  pg_bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1 || true)
  [ -n "$pg_bin" ] || return 1
  chmod 755 "$work"
  pgdata="$work/pg"
  runas=()
  [ "$(id -u)" = 0 ] && runas=(runuser -u postgres --)
  mkdir -p "$pgdata" && chown "$( [ "$(id -u)" = 0 ] && echo postgres || id -un)" "$pgdata"
  "${runas[@]}" "$pg_bin/initdb" -D "$pgdata" -A trust >/dev/null
  "${runas[@]}" "$pg_bin/pg_ctl" -D "$pgdata" -o "-k $pgdata -p $1 -c listen_addresses='${2:-}' ${PG_OPTIONS:-}" \
    -l "$pgdata/server.log" start >/dev/null
  pg_running=1
  psql=("${runas[@]}" "$pg_bin/psql" -h "$pgdata" -p "$1" -U postgres -q -v ON_ERROR_STOP=1)
}

stop_postgres() {
  if [ -n "${pg_running:-}" ]; then
    "${runas[@]}" "$pg_bin/pg_ctl" -D "$pgdata" stop -m fast >/dev/null 2>&1 || true
  fi
}
