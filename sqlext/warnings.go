package sqlext

import "github.com/dolthub/go-mysql-server/sql"

// Warnings are the session's warnings in the order they were raised, as
// SHOW WARNINGS lists them in MySQL; the engine's session gives them
// newest first. The engine keeps the warnings that binding a statement
// raised by taking those past the count it had before, which this order
// makes the new ones (newest first, it took the oldest).
func (s *Session) Warnings() []*sql.Warning {
	w := s.BaseSession.Warnings()
	for i, j := 0, len(w)-1; i < j; i, j = i+1, j-1 {
		w[i], w[j] = w[j], w[i]
	}
	return w
}
