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

# join_tables writes DIR/a.csv, ROWS rows (id, g in 0..99, a word s), and
# DIR/b.csv, twice as many (id, aid referring to a's id, one in fifty
# NULL, v in 0..9), and sets JOIN_QUERIES, the joins and subqueries the
# join benchmarks time over them.
join_tables() { # dir rows
	awk -v n="$2" 'BEGIN { srand(1); for (i = 1; i <= n; i++) printf "%d,%d,w%d\n", i, int(rand() * 100), int(rand() * 1000) }' >"$1/a.csv"
	awk -v n="$2" 'BEGIN { srand(2); for (i = 1; i <= 2 * n; i++) { aid = i % 50 == 0 ? "\\N" : int(rand() * 1.2 * n) + 1; printf "%d,%s,%d\n", i, aid, int(rand() * 10) } }' >"$1/b.csv"
	JOIN_QUERIES=(
		"SELECT COUNT(*) FROM a WHERE EXISTS (SELECT 1 FROM b WHERE b.aid = a.id)"
		"SELECT COUNT(*) FROM a WHERE NOT EXISTS (SELECT 1 FROM b WHERE b.aid = a.id)"
		"SELECT COUNT(*) FROM a WHERE a.id IN (SELECT aid FROM b WHERE v < 3)"
		"SELECT COUNT(*) FROM a WHERE a.id NOT IN (SELECT aid FROM b WHERE v < 3 AND aid IS NOT NULL)"
		"SELECT COUNT(*) FROM a WHERE a.id NOT IN (SELECT aid FROM b WHERE v < 3)"
		"SELECT COUNT(*) FROM a JOIN b ON a.id = b.aid"
		"SELECT COUNT(*) FROM a JOIN a AS a2 ON a.s = a2.s WHERE a.id < 3000"
		"SELECT COUNT(*) FROM a WHERE a.g IN (SELECT v FROM b)"
		"SELECT SUM((SELECT MAX(v) FROM b WHERE b.aid = a.g)) FROM a"
		"SELECT SUM((SELECT COUNT(*) FROM b WHERE b.v = a.g % 10)) FROM a WHERE a.id <= 200"
		"SELECT COUNT(*) FROM a WHERE NOT EXISTS (SELECT 1 FROM b WHERE b.id = a.g)"
		"SELECT COUNT(*) FROM a WHERE EXISTS (SELECT 1 FROM a AS a2 WHERE a2.g = a.g AND a2.id <> a.id)"
	)
}

# load_join_tables loads join_tables' files from DIR into the database jb
# of the server on PORT, with their indexes, and analyses them.
load_join_tables() { # port dir
	local sql=(mariadb -h 127.0.0.1 -P "$1" -u root --local-infile=1 -N -e)
	"${sql[@]}" "SET GLOBAL local_infile = 1; CREATE DATABASE jb"
	"${sql[@]}" "CREATE TABLE jb.a (id INT PRIMARY KEY, g INT, s VARCHAR(10), KEY ig (g)); CREATE TABLE jb.b (id INT PRIMARY KEY, aid INT, v INT, KEY iaid (aid))"
	"${sql[@]}" "LOAD DATA LOCAL INFILE '$2/a.csv' INTO TABLE jb.a FIELDS TERMINATED BY ','"
	"${sql[@]}" "LOAD DATA LOCAL INFILE '$2/b.csv' INTO TABLE jb.b FIELDS TERMINATED BY ','"
	"${sql[@]}" "ANALYZE TABLE jb.a, jb.b" >/dev/null
}

# median prints the median of the numbers on its input, one a line.
median() { sort -g | awk '{a[NR]=$1} END {if (NR%2) print a[(NR+1)/2]; else print (a[NR/2]+a[NR/2+1])/2}'; }

# ab_join_builds starts BIN0 on PORT0 and BIN1 on PORT1 (serve_builds)
# and loads into both the join benchmark's tables of ROWS rows
# (join_tables), for ab_query to time.
ab_join_builds() { # bin0 bin1 rows port0 port1
	serve_builds "$1" "$2" "$4" "$5"
	join_tables "$WORK" "$3"
	local port
	for port in "$4" "$5"; do
		wait_port "$port"
		load_join_tables "$port" "$WORK"
	done
}

# ab_query runs QUERY in database DB RUNS times on each of the servers on
# PORT0 (the build before a change) and PORT1 (after), in turn, the first
# of each pair alternating, and prints the median seconds of each and
# after / before. Both must answer alike.
ab_query() { # port0 port1 db runs query
	local ports=("$1" "$2") db=$3 runs=$4 q=$5 times=("" "") answers=("" "") r i start
	for r in $(seq 1 "$runs"); do
		for i in $(( r % 2 )) $(( (r + 1) % 2 )); do
			start=$(date +%s.%N)
			answers[$i]=$(mariadb -h 127.0.0.1 -P "${ports[$i]}" -u root -N "$db" -e "$q")
			times[$i]+="$(echo "$(date +%s.%N) - $start" | bc) "
		done
	done
	[ "${answers[0]}" = "${answers[1]}" ] || echo "answers differ: ${answers[0]} against ${answers[1]}" >&2
	local before after
	before=$(printf '%s\n' ${times[0]} | median)
	after=$(printf '%s\n' ${times[1]} | median)
	printf '%-100s %9.3f %9.3f %7.2f\n' "$q" "$before" "$after" "$(echo "$after / $before" | bc -l)"
}

# load_csv writes FILE, ROWS rows of an integer key, an integer, a quoted
# text with a comma in it, a DECIMAL and a DATE, and sets LOAD_TABLE, the
# CREATE TABLE of ld.t they load into.
load_csv() { # file rows
	awk -v n="$2" 'BEGIN { for (i = 1; i <= n; i++) printf "%d,%d,\"name %d, the %dth\",%d.%02d,2024-%02d-%02d\n", i, i * 7 % 1000, i, i, i % 1000, i % 100, i % 12 + 1, i % 28 + 1 }' >"$1"
	LOAD_TABLE="CREATE TABLE ld.t (id INT PRIMARY KEY, n INT, name VARCHAR(40), amount DECIMAL(8,2), day DATE)"
}

# serve_builds starts two builds of sqlearn, BIN0 on PORT0 and BIN1 on
# PORT1, each on a fresh data dir in a new temporary directory $WORK,
# removed with both servers when the script exits; wait_port waits for
# each.
serve_builds() { # bin0 bin1 port0 port1
	WORK=$(mktemp -d)
	BUILD_PIDS=()
	trap 'kill "${BUILD_PIDS[@]}" 2>/dev/null || true; wait 2>/dev/null || true; rm -rf "$WORK"' EXIT
	local i bins=("$1" "$2") ports=("$3" "$4")
	for i in 0 1; do
		"${bins[$i]}" serve --addr "127.0.0.1:${ports[$i]}" --data-dir "$WORK/data$i" --log-level error >"$WORK/server$i.log" 2>&1 &
		BUILD_PIDS+=($!)
	done
}
