package sqlext

import (
	"context"
	"io"
	"net"

	ast "github.com/dolthub/vitess/go/vt/sqlparser"
)

// The protocol layer parses a statement a client prepares on the server
// (COM_STMT_PREPARE, what the Go driver sends for every query with
// arguments) with the engine's parser before the statement parser's
// rewrites can run, to count its parameters: SQL that works as a text
// query, such as x > ANY (SELECT ...) or an INTERVAL of compound units,
// was refused there as a syntax error. preparedRewrites reads each
// connection's packets as they arrive and gives such a statement to the
// protocol layer already rewritten (statementParser.preparable).
//
// It reads packets only in the clear: a client that asks for TLS or
// compression in its handshake gets its bytes passed on untouched, and
// prepares such statements as before.
type preparedRewrites struct {
	net.Listener
	rewrite func(string) (string, bool)
}

func (l preparedRewrites) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	return &rewritingConn{Conn: c, rewrite: l.rewrite}, nil
}

const (
	clientCompress     = 0x20
	clientProtocol41   = 0x200
	clientSSL          = 0x800
	clientMultiStmts   = 1 << 16
	clientMultiResults = 1 << 17
	comStmtPrepare     = 0x16
	comSetOption       = 0x1b
	// maxRewritten bounds the packets read whole to look at: larger ones,
	// and every packet but a command's first, pass straight on.
	maxRewritten = 1 << 20
)

type rewritingConn struct {
	net.Conn
	rewrite func(string) (string, bool)
	greeted bool   // the client's handshake response has been read
	opaque  bool   // TLS or compression: every byte passes as it is
	out     []byte // bytes ready for the reader
	through int    // bytes of the current packet to pass on unread
	// seen holds rewrite's answer for each statement prepared lately on
	// the connection ("" for none): a client prepares the same statements
	// again and again (the Go driver, once for every query with
	// arguments), and each answer costs a parse (BenchmarkPreparable).
	seen map[string]string
	// multiState is the client's multi-statement setting (callresults.go).
	multiState
}

// readerOf finds the connection reader under conn, nil when there is none.
func readerOf(conn net.Conn) *rewritingConn {
	for {
		switch c := conn.(type) {
		case *rewritingConn:
			return c
		case *countedConn:
			conn = c.Conn
		case interface{ NetConn() net.Conn }: // TLS
			conn = c.NetConn()
		default:
			return nil
		}
	}
}

func (c *rewritingConn) Read(p []byte) (int, error) {
	switch {
	case len(c.out) > 0:
	case c.opaque:
		return c.Conn.Read(p)
	case c.through > 0:
		n, err := c.Conn.Read(p[:min(len(p), c.through)])
		c.through -= n
		return n, err
	default:
		if err := c.nextPacket(); err != nil {
			return 0, err
		}
	}
	n := copy(p, c.out)
	c.out = c.out[n:]
	return n, nil
}

// nextPacket reads the next packet's header and decides: the handshake
// response and a command's first packet of up to maxRewritten bytes are
// read whole (a statement to prepare rewritten), any other passes on.
func (c *rewritingConn) nextPacket() error {
	var h [4]byte
	if _, err := io.ReadFull(c.Conn, h[:]); err != nil {
		return err
	}
	n, seq := int(h[0])|int(h[1])<<8|int(h[2])<<16, h[3]
	if c.greeted && (seq != 0 || n == 0 || n > maxRewritten) {
		c.out, c.through = h[:], n
		return nil
	}
	payload := make([]byte, n)
	if _, err := io.ReadFull(c.Conn, payload); err != nil {
		return err
	}
	if !c.greeted {
		c.greeted = true
		if n >= 4 {
			caps := uint32(payload[0]) | uint32(payload[1])<<8 | uint32(payload[2])<<16 | uint32(payload[3])<<24
			c.opaque = caps&(clientSSL|clientCompress) != 0
			c.multi.Store(caps&clientMultiStmts != 0)
			if caps&(clientProtocol41|clientMultiResults) == clientProtocol41|clientMultiResults {
				// A CALL's result sets travel as a multi-statement
				// query's do (callresults.go).
				c.forcedMulti = true
				payload[2] |= clientMultiStmts >> 16
			}
		}
	} else if payload[0] == comSetOption && n == 3 && c.forcedMulti {
		// The client's own setting is kept; the wire layer's stays on.
		c.multi.Store(payload[1] == 0 && payload[2] == 0)
		payload[1], payload[2] = 0, 0
	} else if payload[0] == comStmtPrepare {
		if q, ok := c.rewritten(string(payload[1:])); ok && len(q)+1 <= maxRewritten {
			payload = append([]byte{comStmtPrepare}, q...)
			n = len(payload)
			h[0], h[1], h[2] = byte(n), byte(n>>8), byte(n>>16)
		}
	}
	c.out = append(h[:], payload...)
	return nil
}

// rewritten is rewrite(query), answered from seen when it can be.
func (c *rewritingConn) rewritten(query string) (string, bool) {
	if q, ok := c.seen[query]; ok {
		return q, q != ""
	}
	q, ok := c.rewrite(query)
	if !ok {
		q = ""
	}
	if c.seen == nil || len(c.seen) >= 256 {
		c.seen = make(map[string]string)
	}
	c.seen[query] = q
	return q, ok
}

// preparable is a statement to prepare written as the protocol layer's
// parser reads it, for one that parser refuses but the statement
// parser's rewrites make readable; ok is false for any other. The client
// binds parameters (?) by position: the rewrites keep their order, and
// one that repeats a parameter (x in x > ANY (...) is read more than
// once) is not taken, nor are assignments (@v := ...), whose rewrite
// declares variables in a session.
func (sp statementParser) preparable(query string) (string, bool) {
	parses := func(q string) bool {
		_, err := ast.ParseWithOptions(context.Background(), q, ast.ParserOptions{})
		return err == nil
	}
	if parses(query) {
		return "", false
	}
	params := 0
	for _, t := range sqlTokens(query) {
		switch t.text {
		case "?":
			params++
		case ":=":
			return "", false
		}
	}
	q := rewriteParsable(query)
	if !parses(q) {
		r, ok := sp.rewriteRefused(context.Background(), q)
		if !ok || !parses(r) {
			return "", false
		}
		q = r
	}
	for _, t := range sqlTokens(q) {
		if t.text == "?" {
			params--
		}
	}
	return q, params == 0
}
