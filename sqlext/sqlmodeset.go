package sqlext

import (
	"context"
	"strings"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/types"
	ast "github.com/dolthub/vitess/go/vt/sqlparser"
)

// sql_mode is a SET of MySQL's modes, listed as MySQL lists them, in the
// order of their bits, and the two combination modes stand for the modes
// they contain, as in MySQL 8.0: `SET sql_mode = 'TRADITIONAL'` is strict
// mode. The engine's set listed its modes alphabetically and kept ANSI
// and TRADITIONAL as bare names, so that TRADITIONAL was not strict and
// ANSI did not concatenate with ||.
//
// NO_AUTO_CREATE_USER, which MySQL 8.0 no longer knows, is still taken
// (it changes nothing), as MariaDB takes it, so that the SET statements
// older dumps write before each routine restore.
var sqlModeNames = []string{
	"REAL_AS_FLOAT", "PIPES_AS_CONCAT", "ANSI_QUOTES", "IGNORE_SPACE",
	"ONLY_FULL_GROUP_BY", "NO_UNSIGNED_SUBTRACTION", "NO_DIR_IN_CREATE",
	"ANSI", "NO_AUTO_VALUE_ON_ZERO", "NO_BACKSLASH_ESCAPES",
	"STRICT_TRANS_TABLES", "STRICT_ALL_TABLES", "NO_ZERO_IN_DATE",
	"NO_ZERO_DATE", "ALLOW_INVALID_DATES", "ERROR_FOR_DIVISION_BY_ZERO",
	"TRADITIONAL", "NO_AUTO_CREATE_USER", "HIGH_NOT_PRECEDENCE",
	"NO_ENGINE_SUBSTITUTION", "PAD_CHAR_TO_FULL_LENGTH",
	"TIME_TRUNCATE_FRACTIONAL",
}

// sqlModeCombinations are the modes MySQL 8.0's combination modes set.
var sqlModeCombinations = map[string][]string{
	"ANSI":        {"REAL_AS_FLOAT", "PIPES_AS_CONCAT", "ANSI_QUOTES", "IGNORE_SPACE", "ONLY_FULL_GROUP_BY"},
	"TRADITIONAL": {"STRICT_TRANS_TABLES", "STRICT_ALL_TABLES", "NO_ZERO_IN_DATE", "NO_ZERO_DATE", "ERROR_FOR_DIVISION_BY_ZERO", "NO_ENGINE_SUBSTITUTION"},
}

// sqlModeType is sql_mode's type: the set of sqlModeNames, whose values
// gain the modes of the combinations they name.
type sqlModeType struct {
	sql.SystemVariableType
	set sql.SetType
	// combination holds, for each combination mode, its bit and the bits
	// of the modes it sets (an array, so that the type compares).
	combination [2]struct{ bit, sets uint64 }
}

func newSQLModeType() sqlModeType {
	t := types.NewSystemSetType("sql_mode", sql.Collation_utf8mb4_0900_ai_ci, sqlModeNames...)
	m := sqlModeType{SystemVariableType: t, set: t.UnderlyingType().(sql.SetType)}
	bits := func(names string) uint64 {
		b, _, err := m.set.Convert(context.Background(), names)
		if err != nil {
			panic("sqlext: sql_mode lacks one of " + names)
		}
		return b.(uint64)
	}
	for i, name := range []string{"ANSI", "TRADITIONAL"} {
		m.combination[i].bit = bits(name)
		m.combination[i].sets = bits(strings.Join(sqlModeCombinations[name], ","))
	}
	return m
}

// Convert reads a value as the engine's set does, a name it does not
// know refused with MySQL's error, and adds the modes of the combination
// modes it names. The value is the list of names, not the set's bits,
// which SHOW GLOBAL VARIABLES would show as a number.
func (t sqlModeType) Convert(ctx context.Context, v any) (any, sql.ConvertInRange, error) {
	out, inRange, err := t.SystemVariableType.Convert(ctx, v)
	if err != nil {
		if s, ok := v.(string); ok {
			return nil, sql.OutOfRange, sql.ErrInvalidSystemVariableValue.New("sql_mode", unknownMode(s))
		}
		return nil, inRange, err
	}
	bits, ok := out.(uint64)
	if !ok {
		return out, inRange, nil
	}
	for _, c := range t.combination {
		if bits&c.bit != 0 {
			bits |= c.sets
		}
	}
	names, err := t.set.BitsToString(bits)
	return names, inRange, err
}

// unknownMode is the first name in a sql_mode value that is no mode, as
// MySQL's error names it; the whole value when none stands out.
func unknownMode(s string) string {
	known := map[string]bool{}
	for _, n := range sqlModeNames {
		known[n] = true
	}
	for _, name := range strings.Split(s, ",") {
		if n := strings.ToUpper(strings.TrimSpace(name)); n != "" && !known[n] {
			return strings.TrimSpace(name)
		}
	}
	return s
}

func (t sqlModeType) Compare(ctx context.Context, a, b any) (int, error) {
	ab, _, err := t.Convert(ctx, a)
	if err != nil {
		return 0, err
	}
	bb, _, err := t.Convert(ctx, b)
	if err != nil {
		return 0, err
	}
	return t.SystemVariableType.Compare(ctx, ab, bb)
}

func (t sqlModeType) Equals(other sql.Type) bool {
	o, ok := other.(sqlModeType)
	return ok && t.SystemVariableType.Equals(o.SystemVariableType)
}

func (t sqlModeType) EncodeValue(v any) (string, error) {
	names, _, err := t.Convert(context.Background(), v)
	if err != nil {
		return "", err
	}
	return names.(string), nil
}

func (t sqlModeType) DecodeValue(s string) (any, error) {
	v, _, err := t.Convert(context.Background(), s)
	if err != nil {
		return nil, sql.ErrSystemVariableCodeFail.New(s, t.String())
	}
	return v, nil
}

// The engine lists a set variable's value by its SetType.

func (t sqlModeType) CharacterSet() sql.CharacterSetID         { return t.set.CharacterSet() }
func (t sqlModeType) Collation() sql.CollationID               { return t.set.Collation() }
func (t sqlModeType) NumberOfElements() uint16                 { return t.set.NumberOfElements() }
func (t sqlModeType) BitsToString(bits uint64) (string, error) { return t.set.BitsToString(bits) }
func (t sqlModeType) Values() []string                         { return t.set.Values() }

var _ sql.SetType = sqlModeType{}

// realAsFloat makes the REAL columns st defines FLOAT ones when the
// session's sql_mode has REAL_AS_FLOAT (as ANSI does); REAL is otherwise
// DOUBLE, as the engine reads it.
func realAsFloat(ctx *sql.Context, st ast.Statement) {
	var specs []*ast.TableSpec
	switch s := st.(type) {
	case *ast.DDL:
		specs = append(specs, s.TableSpec)
	case *ast.AlterTable:
		for _, d := range s.Statements {
			specs = append(specs, d.TableSpec)
		}
	default:
		return
	}
	if !sqlMode(ctx).ModeEnabled("REAL_AS_FLOAT") {
		return
	}
	for _, spec := range specs {
		if spec == nil {
			continue
		}
		for _, c := range spec.Columns {
			if strings.EqualFold(c.Type.Type, "real") {
				c.Type.Type = "float"
			}
		}
	}
}
