# Helpers the bench scripts share; source it from bash.

# need installs the Debian packages named that are missing (as root).
need() {
	for p in "$@"; do
		dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" && continue
		echo "installing $p" >&2
		apt-get update -q >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y -q "$p" >/dev/null
	done
}

# wait_port waits until a MySQL server answers on the loopback port.
wait_port() {
	for _ in $(seq 1 300); do
		mariadb -h 127.0.0.1 -P "$1" -u root -e 'SELECT 1' >/dev/null 2>&1 && return 0
		sleep 0.2
	done
	echo "server on port $1 did not come up" >&2
	exit 1
}

# start_mariadb starts a fresh MariaDB server with its default (durable)
# settings in the directory DIR on the loopback port PORT, and sets
# MARIADB_PID.
start_mariadb() {
	mariadb-install-db --no-defaults --datadir="$1/mariadb" --user="$(id -un)" --auth-root-authentication-method=normal >/dev/null 2>&1
	mariadbd --no-defaults --datadir="$1/mariadb" --port="$2" --bind-address=127.0.0.1 \
		--socket="$1/mariadb.sock" --user="$(id -un)" --skip-name-resolve 2>"$1/mariadb.log" &
	MARIADB_PID=$!
}

# start_node starts cluster node ID of the built server with its SQL on
# the loopback port SQL_PORT and its Raft on RAFT_PORT, joining the node
# whose Raft port is JOIN when given, with its data dir and log under
# $WORK and $RAFT_LOG's log storage; appends its pid to PIDS and waits for
# it to answer.
start_node() { # id sql-port raft-port [join]
	local join=()
	[ -n "${4:-}" ] && join=(--join "127.0.0.1:$4")
	"$ROOT/bin/sqlearn" serve --node-id "$1" --addr "127.0.0.1:$2" --raft-addr "127.0.0.1:$3" \
		--data-dir "$WORK/$1" --raft-log "$RAFT_LOG" --log-level warn "${join[@]}" 2>"$WORK/$1.log" &
	PIDS+=($!)
	wait_port "$2"
}

# cluster_bench prepares a cluster bench: a temporary $WORK for the nodes'
# data dirs and logs, PIDS for start_node to fill, both cleaned up when
# the script exits, the clients it needs and the built server.
cluster_bench() {
	WORK=$(mktemp -d)
	PIDS=()
	trap 'for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null || true; done; wait 2>/dev/null || true; rm -rf "$WORK"' EXIT
	need sysbench mariadb-client
	(cd "$ROOT" && make -s build)
}

# serve_both starts the built sqlearn on the loopback port $SQLEARN_PORT
# and a fresh MariaDB server with its default (durable) settings on
# $MARIADB_PORT, with their data dirs in a new temporary directory $WORK,
# removed with both servers when the script exits; $ROOT is the checkout.
serve_both() {
	WORK=$(mktemp -d)
	trap 'kill ${SQLEARN_PID:-} ${MARIADB_PID:-} 2>/dev/null || true; wait 2>/dev/null || true; rm -rf "$WORK"' EXIT
	(cd "$ROOT" && make -s build)
	"$ROOT/bin/sqlearn" serve --addr 127.0.0.1:$SQLEARN_PORT --data-dir "$WORK/sqlearn" --log-level "${SQLEARN_LOG_LEVEL:-error}" >"$WORK/sqlearn.log" 2>&1 &
	SQLEARN_PID=$!
	start_mariadb "$WORK" $MARIADB_PORT
	wait_port $SQLEARN_PORT
	wait_port $MARIADB_PORT
}

# against_mariadb runs the differential check CHECK (a Python script
# taking SQLEARN_PORT MARIADB_PORT COUNT SEED) against the built sqlearn
# and a fresh MariaDB server (serve_both), once for each seed, with COUNT
# cases each.
against_mariadb() { # check count seed...
	local check=$1 count=$2
	shift 2
	need mariadb-server mariadb-client python3-pymysql
	SQLEARN_LOG_LEVEL=warn serve_both
	for seed in "$@"; do
		echo "seed $seed:"
		/usr/bin/python3 "$check" $SQLEARN_PORT $MARIADB_PORT "$count" "$seed"
	done
}
