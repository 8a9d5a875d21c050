package main

import (
	"database/sql"
	"fmt"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/sqlearn/sqlearn/internal/testenv"
)

// clusterNode is one process of a test cluster and how to start it again.
type clusterNode struct {
	id, raft, dir string
	args          []string
	p             *proc
}

func (n *clusterNode) start(t *testing.T) {
	args := append([]string{"--node-id", n.id, "--raft-addr", n.raft, "--enable-fault-injection"}, n.args...)
	n.p = startBinary(t, n.dir, args...)
}

func (n *clusterNode) db(t *testing.T, dbName string) *sql.DB {
	return n.p.db(t, "root", "", dbName)
}

func startTestCluster(t *testing.T, size int) []*clusterNode {
	t.Helper()
	var nodes []*clusterNode
	for i := 1; i <= size; i++ {
		n := &clusterNode{id: fmt.Sprintf("node%d", i), raft: testenv.FreeAddr(t), dir: t.TempDir()}
		if i > 1 {
			n.args = []string{"--join", nodes[0].raft}
		}
		n.start(t)
		nodes = append(nodes, n)
	}
	return nodes
}

func leaderNode(t *testing.T, nodes []*clusterNode) *clusterNode {
	t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for time.Now().Before(deadline) {
		for _, n := range nodes {
			if n.p == nil {
				continue
			}
			select {
			case <-n.p.done:
				continue
			default:
			}
			var id string
			err := n.db(t, "").QueryRow("SELECT node_id FROM sys.cluster_members WHERE role = 'leader' AND state = 'leader'").Scan(&id)
			if err != nil {
				continue
			}
			for _, m := range nodes {
				if m.id == id && m.p != nil {
					return m
				}
			}
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Fatal("no leader found")
	return nil
}

func TestClusterOfThree(t *testing.T) {
	nodes := startTestCluster(t, 3)
	// Writes on every node: DDL and rows.
	exec1(t, nodes[1].db(t, ""), "CREATE DATABASE c")
	exec1(t, nodes[2].db(t, ""), "CREATE TABLE c.kv (k INT PRIMARY KEY, v VARCHAR(20))")
	for i, n := range nodes {
		exec1(t, n.db(t, "c"), "INSERT INTO kv VALUES (?, ?)", i, n.id)
	}
	// Auto-increment values and hidden row ids are unique cluster-wide
	// when every node inserts at once.
	exec1(t, nodes[0].db(t, ""), "CREATE TABLE c.auto (id INT PRIMARY KEY AUTO_INCREMENT, node VARCHAR(8))")
	exec1(t, nodes[0].db(t, ""), "CREATE TABLE c.bag (node VARCHAR(8))")
	var wg sync.WaitGroup
	for _, n := range nodes {
		wg.Add(1)
		go func(n *clusterNode) {
			defer wg.Done()
			db := n.db(t, "c")
			for i := 0; i < 20; i++ {
				if _, err := db.Exec("INSERT INTO auto (node) VALUES (?)", n.id); err != nil {
					t.Errorf("auto-increment insert on %s: %v", n.id, err)
					return
				}
				if _, err := db.Exec("INSERT INTO bag VALUES (?)", n.id); err != nil {
					t.Errorf("keyless insert on %s: %v", n.id, err)
					return
				}
			}
		}(n)
	}
	wg.Wait()
	if got := scalar[int](t, nodes[1].db(t, "c"), "SELECT COUNT(DISTINCT id) FROM auto"); got != 60 {
		t.Fatalf("%d distinct auto-increment ids, want 60", got)
	}
	if got := scalar[int](t, nodes[2].db(t, "c"), "SELECT COUNT(*) FROM bag"); got != 60 {
		t.Fatalf("%d keyless rows, want 60", got)
	}
	// A rebuild (here a new primary key numbering the rows) reaches every
	// node as the same table.
	exec1(t, nodes[1].db(t, ""), "ALTER TABLE c.bag ADD COLUMN id INT AUTO_INCREMENT PRIMARY KEY FIRST")
	var keyed string
	for _, n := range nodes {
		db := n.db(t, "c")
		db.SetMaxOpenConns(1)
		exec1(t, db, "SET @@sqlearn_read_consistency = 'linearizable'")
		got := scalar[string](t, db, "SELECT CONCAT(COUNT(*), ' ', MIN(id), ' ', MAX(id), ' ', SUM(id * CRC32(node))) FROM bag")
		if keyed == "" {
			keyed = got
		}
		if !strings.HasPrefix(got, "60 1 60 ") || got != keyed {
			t.Fatalf("bag with its new key on %s: %s (first node: %s)", n.id, got, keyed)
		}
	}
	exec1(t, nodes[0].db(t, ""), "CREATE USER reader IDENTIFIED BY 'pw'")
	exec1(t, nodes[0].db(t, ""), "GRANT SELECT ON c.* TO reader")
	// Reads at every level on every node see every acknowledged write.
	for _, n := range nodes {
		for _, level := range []string{"linearizable", "weak"} {
			db := n.db(t, "c")
			db.SetMaxOpenConns(1)
			exec1(t, db, "SET @@sqlearn_read_consistency = ?", level)
			if got := scalar[int](t, db, "SELECT COUNT(*) FROM kv"); got != 3 {
				t.Fatalf("%s at %s: %d rows", n.id, level, got)
			}
		}
		// Users replicate too; a node reloads them just after applying the
		// change, so give it a moment.
		var got int
		var err error
		for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
			if err = n.p.db(t, "reader", "pw", "c").QueryRow("SELECT COUNT(*) FROM kv").Scan(&got); err == nil {
				break
			}
		}
		if err != nil || got != 3 {
			t.Fatalf("reader on %s: %d rows, %v", n.id, got, err)
		}
	}
	db := nodes[2].db(t, "c")
	db.SetMaxOpenConns(1)
	exec1(t, db, "SET @@sqlearn_read_consistency = 'none'")
	scalar[int](t, db, "SELECT COUNT(*) FROM kv")
	if _, err := db.Exec("SET @@sqlearn_read_consistency = 'eventual'"); err == nil {
		t.Fatal("an unknown consistency level was accepted")
	}
	if got := scalar[int](t, nodes[1].db(t, ""), "SELECT COUNT(*) FROM sys.cluster_members WHERE applied_index > 0"); got != 3 {
		t.Fatalf("cluster_members shows %d live members", got)
	}

	// Kill the leader during a write load; a new leader takes writes.
	leader := leaderNode(t, nodes)
	var survivors []*clusterNode
	for _, n := range nodes {
		if n != leader {
			survivors = append(survivors, n)
		}
	}
	var acked sync.Map
	var next atomic.Int64
	next.Store(100)
	stop := make(chan struct{})
	for _, n := range survivors {
		wg.Add(1)
		go func(db *sql.DB) {
			defer wg.Done()
			for {
				select {
				case <-stop:
					return
				default:
				}
				k := next.Add(1)
				if _, err := db.Exec("INSERT INTO kv VALUES (?, 'load')", k); err == nil {
					acked.Store(k, true)
				}
			}
		}(n.db(t, "c"))
	}
	time.Sleep(300 * time.Millisecond)
	leader.p.kill()
	killed := time.Now()
	var elected time.Duration
	for time.Since(killed) < 20*time.Second {
		if _, err := survivors[0].db(t, "c").Exec("INSERT INTO kv VALUES (?, 'probe')", -next.Add(1)); err == nil {
			elected = time.Since(killed)
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	close(stop)
	wg.Wait()
	if elected == 0 {
		t.Fatal("no write accepted after the leader was killed")
	}
	t.Logf("leader killed: a new leader accepted writes after %v", elected.Round(time.Millisecond))

	// The old leader restarts with the same command line and catches up.
	leader.start(t)
	want := scalar[int](t, survivors[0].db(t, "c"), "SELECT COUNT(*) FROM kv")
	db = leader.db(t, "c")
	db.SetMaxOpenConns(1)
	exec1(t, db, "SET @@sqlearn_read_consistency = 'linearizable'")
	if got := scalar[int](t, db, "SELECT COUNT(*) FROM kv"); got != want {
		t.Fatalf("restarted node sees %d rows, want %d", got, want)
	}
	acked.Range(func(k, _ any) bool {
		if scalar[int](t, db, "SELECT COUNT(*) FROM kv WHERE k = ?", k) != 1 {
			t.Fatalf("acknowledged key %v lost", k)
		}
		return true
	})

	// A follower restarted with an empty data dir catches up from the others.
	f := survivors[1]
	if f == leaderNode(t, nodes) {
		f = survivors[0]
	}
	f.p.stop(t)
	os.RemoveAll(f.dir)
	f.start(t)
	db = f.db(t, "c")
	db.SetMaxOpenConns(1)
	exec1(t, db, "SET @@sqlearn_read_consistency = 'linearizable'")
	if got := scalar[int](t, db, "SELECT COUNT(*) FROM kv"); got != want {
		t.Fatalf("emptied follower sees %d rows, want %d", got, want)
	}

	// Scale up by one node, then remove it.
	n4 := &clusterNode{id: "node4", raft: testenv.FreeAddr(t), dir: t.TempDir(), args: []string{"--join", nodes[1].raft + "," + nodes[0].raft}}
	n4.start(t)
	if got := scalar[int](t, n4.db(t, "c"), "SELECT COUNT(*) FROM kv"); got != want {
		t.Fatalf("new node sees %d rows, want %d", got, want)
	}
	// A configuration change reaches each member through the log, so a
	// member other than the leader may list it a moment later.
	waitMembers := func(n *clusterNode, want int) {
		t.Helper()
		deadline := time.Now().Add(15 * time.Second)
		got := 0
		for time.Now().Before(deadline) {
			if got = scalar[int](t, n.db(t, ""), "SELECT COUNT(*) FROM sys.cluster_members"); got == want {
				return
			}
			time.Sleep(50 * time.Millisecond)
		}
		t.Fatalf("%s lists %d members, want %d", n.id, got, want)
	}
	waitMembers(nodes[0], 4)
	exec1(t, nodes[1].db(t, ""), "CALL sys.cluster_remove('node4')")
	waitMembers(nodes[0], 3)
	if _, err := nodes[0].p.db(t, "reader", "pw", "").Exec("CALL sys.cluster_remove('node3')"); err == nil {
		t.Fatal("an unprivileged user changed the membership")
	}
}

// ML_PREDICT_TABLE called on a follower writes the same output on every
// node: the log carries the input rows' keys, and each node copies the
// rows from its own input table.
func TestClusterPredictTableOnFollower(t *testing.T) {
	nodes := startTestCluster(t, 3)
	leader := leaderNode(t, nodes)
	var follower *clusterNode
	for _, n := range nodes {
		if n != leader {
			follower = n
			break
		}
	}
	db := leader.db(t, "")
	exec1(t, db, "CREATE DATABASE p")
	exec1(t, db, "CREATE TABLE p.pts (id BIGINT PRIMARY KEY, a DOUBLE, b DOUBLE, y INT)")
	var q strings.Builder
	q.WriteString("INSERT INTO p.pts VALUES ")
	for i := 0; i < 3000; i++ {
		if i > 0 {
			q.WriteString(",")
		}
		a, b := float64(i%41)/8, float64(i%13)-6
		y := 0
		if a+b/4 > 2 {
			y = 1
		}
		fmt.Fprintf(&q, "(%d, %g, %g, %d)", i, a, b, y)
	}
	exec1(t, db, q.String())
	exec1(t, db, "DELETE FROM p.pts WHERE id % 7 = 3")
	fdb := follower.db(t, "p")
	fdb.SetMaxOpenConns(1)
	exec1(t, fdb, "CALL sys.ML_TRAIN('p.pts', 'y', JSON_OBJECT('task', 'classification', 'algorithm', 'LogisticRegression', 'exclude_column_list', JSON_ARRAY('id')), @m)")
	exec1(t, fdb, "CALL sys.ML_PREDICT_TABLE('p.pts', @m, 'p.out', NULL)")
	const digest = "SELECT COUNT(*), SUM(CRC32(CONCAT_WS(',', id, a, b, y, Prediction, ml_results))) FROM p.out"
	var want [2]int64
	if err := fdb.QueryRow(digest).Scan(&want[0], &want[1]); err != nil {
		t.Fatal(err)
	}
	if want[0] != 3000-429 {
		t.Fatalf("the output holds %d rows, want %d", want[0], 3000-429)
	}
	if same := scalar[int](t, fdb, "SELECT COUNT(*) FROM p.out o JOIN p.pts i ON i.id = o.id AND i.a = o.a AND i.b = o.b AND i.y = o.y"); int64(same) != want[0] {
		t.Fatalf("%d output rows equal an input row, of %d", same, want[0])
	}
	for _, n := range nodes {
		ndb := n.db(t, "p")
		ndb.SetMaxOpenConns(1)
		exec1(t, ndb, "SET @@sqlearn_read_consistency = 'linearizable'")
		var got [2]int64
		if err := ndb.QueryRow(digest).Scan(&got[0], &got[1]); err != nil {
			t.Fatal(err)
		}
		if got != want {
			t.Fatalf("%s holds (rows, digest) %v, the follower that called %v", n.id, got, want)
		}
	}
}
