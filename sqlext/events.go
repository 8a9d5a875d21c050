package sqlext

import (
	"strings"
	"time"

	"github.com/dolthub/go-mysql-server/sql"
	ast "github.com/dolthub/vitess/go/vt/sqlparser"
)

// eventless answers go-mysql-server's event interface for a database that
// keeps no events. The engine wraps every database in one that claims the
// interface and fails when the database lacks it, which made
// information_schema.EVENTS and SHOW EVENTS fail; with it, they list
// nothing, and CREATE EVENT is refused as unsupported (sqlearn runs no
// event scheduler, so a stored event would never fire).
type eventless struct{}

var (
	_ sql.EventDatabase = (*Database)(nil)
	_ sql.EventDatabase = sysDatabase{}
)

func (eventless) GetEvent(*sql.Context, string) (sql.EventDefinition, bool, error) {
	return sql.EventDefinition{}, false, nil
}

func (eventless) GetEvents(*sql.Context) ([]sql.EventDefinition, any, error) {
	return nil, nil, nil
}

func (eventless) SaveEvent(*sql.Context, sql.EventDefinition) (bool, error) {
	return false, sql.ErrUnsupportedFeature.New("events (sqlearn runs no event scheduler)")
}

func (eventless) DropEvent(_ *sql.Context, name string) error {
	return sql.ErrEventDoesNotExist.New(name)
}

func (eventless) UpdateEvent(_ *sql.Context, name string, _ sql.EventDefinition) (bool, error) {
	return false, sql.ErrEventDoesNotExist.New(name)
}

func (eventless) UpdateLastExecuted(*sql.Context, string, time.Time) error { return nil }

func (eventless) NeedsToReloadEvents(*sql.Context, any) (bool, error) { return false, nil }

// showEventsIn lends SHOW EVENTS FROM db its database: the engine read the
// events of the current database whatever the statement named, and
// failed with 1046 in a session without one.
func showEventsIn(ctx *sql.Context, st ast.Statement) {
	if show, ok := st.(*ast.Show); ok && strings.EqualFold(show.Type, "events") && show.ShowTablesOpt != nil && show.ShowTablesOpt.DbName != "" {
		lendDatabase(ctx, show.ShowTablesOpt.DbName)
	}
}
