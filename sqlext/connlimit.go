package sqlext

import (
	"encoding/binary"
	"log/slog"
	"net"
	"sync"
	"sync/atomic"
	"time"

	"github.com/dolthub/go-mysql-server/sql"
)

// connLimit refuses a client beyond @@max_connections with MySQL's error
// 1040, "Too many connections", and closes it. (The wire layer's own
// limit makes extra clients wait instead, and the engine left it unset.)
// The variable is read at each accept, so SET GLOBAL max_connections
// takes effect for the next client.
type connLimit struct {
	net.Listener
	log    *slog.Logger
	active atomic.Int64
}

func (l *connLimit) Accept() (net.Conn, error) {
	for {
		c, err := l.Listener.Accept()
		if err != nil {
			return nil, err
		}
		if max := maxConnections(); l.active.Add(1) > max {
			l.active.Add(-1)
			l.log.Warn("refused a client: too many connections", "remote", c.RemoteAddr().String(), "max_connections", max)
			go refuseTooMany(c)
			continue
		}
		return &countedConn{Conn: c, release: sync.OnceFunc(func() { l.active.Add(-1) })}, nil
	}
}

func maxConnections() int64 {
	if _, v, ok := sql.SystemVariables.GetGlobal("max_connections"); ok {
		if n, ok := v.(int64); ok && n > 0 {
			return n
		}
	}
	return 1<<63 - 1
}

// erConCount is MySQL's ER_CON_COUNT_ERROR.
const erConCount = 1040

// refuseTooMany sends the error as the first packet, in place of the
// handshake, as MySQL does, and closes the connection.
func refuseTooMany(c net.Conn) {
	defer c.Close()
	msg := "#08004Too many connections"
	payload := append([]byte{0xff, erConCount & 0xff, erConCount >> 8}, msg...)
	packet := make([]byte, 4, 4+len(payload))
	binary.LittleEndian.PutUint32(packet, uint32(len(payload))) // length; sequence 0
	packet[3] = 0
	_ = c.SetWriteDeadline(time.Now().Add(time.Second))
	_, _ = c.Write(append(packet, payload...))
}

// countedConn gives its place back once, when closed.
type countedConn struct {
	net.Conn
	release func()
}

func (c *countedConn) Close() error {
	c.release()
	return c.Conn.Close()
}
