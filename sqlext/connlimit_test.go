package sqlext_test

import (
	"database/sql"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/go-sql-driver/mysql"
)

// TestMaxConnections holds @@max_connections open connections and
// checks that one more is refused with MySQL's 1040 and that a freed
// place is taken again.
func TestMaxConnections(t *testing.T) {
	_, addr, db := serve(t)
	db.SetMaxOpenConns(1)
	mustExec(t, db, "SET GLOBAL max_connections = 3")
	t.Cleanup(func() { db.Exec("SET GLOBAL max_connections = 151") })
	open := func() (*sql.Conn, error) {
		c, err := sql.Open("mysql", fmt.Sprintf("root@tcp(%s)/", addr))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { c.Close() })
		c.SetMaxIdleConns(0)
		return c.Conn(t.Context())
	}
	var held []*sql.Conn
	for range 2 { // with db's own connection, three
		c, err := open()
		if err != nil {
			t.Fatalf("connection %d refused: %v", len(held)+2, err)
		}
		held = append(held, c)
	}
	_, err := open()
	var me *mysql.MySQLError
	if !errors.As(err, &me) || me.Number != 1040 {
		t.Fatalf("a fourth connection: %v, want error 1040", err)
	}
	held[0].Close()
	// The server frees the place when it sees the client go.
	var c *sql.Conn
	for start := time.Now(); ; time.Sleep(20 * time.Millisecond) {
		if c, err = open(); err == nil || time.Since(start) > 10*time.Second {
			break
		}
	}
	if err != nil {
		t.Fatalf("after one closed: %v", err)
	}
	if err := c.PingContext(t.Context()); err != nil {
		t.Fatal(err)
	}
}
