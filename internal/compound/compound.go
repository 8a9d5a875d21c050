// Package compound reads the bodies of MySQL stored procedures: BEGIN ...
// END blocks and their DECLAREs, IF, CASE, LOOP, WHILE and REPEAT, LEAVE
// and ITERATE, cursors, SIGNAL, RESIGNAL and GET DIAGNOSTICS. Every other
// statement (SELECT, INSERT, SET, CALL, ...) and every expression is kept
// as its source text, for the SQL engine to parse and run when the
// procedure runs; this package knows nothing of the engine and must not
// depend on it.
//
// Parse reads a body and checks what MySQL checks when a procedure is
// created: labels, the order of declarations, names declared twice, and
// cursors and conditions that are used but not declared. Its errors carry
// MySQL's error code, SQLSTATE and text.
package compound

import "fmt"

// Stmt is one statement of a body. At is its offset in the source.
type Stmt interface{ Pos() int }

// Block is [label:] BEGIN ... END [label], its declarations in the order
// MySQL requires them: variables and conditions, cursors, handlers.
type Block struct {
	At       int
	Label    string
	Vars     []*Var
	Conds    []*CondDecl
	Cursors  []*Cursor
	Handlers []*Handler
	Body     []Stmt
}

// Var is DECLARE name [, name ...] type [DEFAULT expr].
type Var struct {
	Names   []string
	Type    string
	Default string // the expression's text; empty for none
}

// CondDecl is DECLARE name CONDITION FOR value.
type CondDecl struct {
	Name string
	Cond Condition
}

// Cursor is DECLARE name CURSOR FOR query.
type Cursor struct {
	Name  string
	Query string
}

// Handler is DECLARE {CONTINUE | EXIT} HANDLER FOR conditions statement.
type Handler struct {
	At    int
	Exit  bool
	Conds []Condition
	Body  Stmt
}

// CondKind is the kind of a condition value.
type CondKind int

const (
	ErrorCode    CondKind = iota // a MySQL error number
	SQLState                     // SQLSTATE 'xxxxx'
	Named                        // a declared condition's name
	SQLWarning                   // SQLSTATE class 01
	NotFound                     // SQLSTATE class 02
	SQLException                 // every class but 00, 01 and 02
)

// Condition is a condition value of a handler, a CONDITION declaration or
// a SIGNAL.
type Condition struct {
	Kind  CondKind
	Code  int
	State string
	Name  string
}

func (c Condition) String() string {
	switch c.Kind {
	case ErrorCode:
		return fmt.Sprint(c.Code)
	case SQLState:
		return "SQLSTATE '" + c.State + "'"
	case Named:
		return c.Name
	case SQLWarning:
		return "SQLWARNING"
	case NotFound:
		return "NOT FOUND"
	}
	return "SQLEXCEPTION"
}

// If is IF ... THEN ... [ELSEIF ... THEN ...] [ELSE ...] END IF.
type If struct {
	At       int
	Branches []Branch
	Else     []Stmt
}

// Branch is a condition (an expression's text) and the statements it
// guards.
type Branch struct {
	Cond string
	Body []Stmt
}

// Case is CASE [value] WHEN ... THEN ... [ELSE ...] END CASE. With a
// Value, each branch's Cond is compared with it; without, each is a
// search condition. A CASE that matches no branch and has no ELSE is
// error 1339.
type Case struct {
	At      int
	Value   string
	Whens   []Branch
	Else    []Stmt
	HasElse bool
}

// LoopKind tells LOOP, WHILE and REPEAT apart.
type LoopKind int

const (
	PlainLoop  LoopKind = iota
	WhileLoop           // Cond is checked before each pass
	RepeatLoop          // Cond (UNTIL) is checked after each pass
)

// Loop is [label:] LOOP | WHILE cond DO | REPEAT ... UNTIL cond.
type Loop struct {
	At    int
	Label string
	Kind  LoopKind
	Cond  string
	Body  []Stmt
}

// Leave is LEAVE label.
type Leave struct {
	At    int
	Label string
}

// Iterate is ITERATE label.
type Iterate struct {
	At    int
	Label string
}

// Return is RETURN expr, which only a function may hold.
type Return struct {
	At   int
	Expr string
}

// Open, Fetch and Close work a cursor.
type Open struct {
	At     int
	Cursor string
}

type Fetch struct {
	At     int
	Cursor string
	Into   []string
}

type Close struct {
	At     int
	Cursor string
}

// Signal is SIGNAL or RESIGNAL. Cond is nil for a RESIGNAL that raises
// the handled condition itself.
type Signal struct {
	At       int
	Resignal bool
	Cond     *Condition
	Items    []Item
}

// Item is one piece of information a SIGNAL sets (MESSAGE_TEXT = expr) or
// GET DIAGNOSTICS reads (target = MESSAGE_TEXT). Name is upper case.
type Item struct {
	Name string
	Expr string // SIGNAL: the value's text; GET DIAGNOSTICS: the target
}

// Diagnostics is GET [CURRENT | STACKED] DIAGNOSTICS. Condition is the
// condition number's text, empty when the statement's own information
// (NUMBER, ROW_COUNT) is read.
type Diagnostics struct {
	At        int
	Stacked   bool
	Condition string
	Items     []Item
}

// SQL is any other statement, as its text.
type SQL struct {
	At   int
	Text string
}

func (s *Block) Pos() int       { return s.At }
func (s *If) Pos() int          { return s.At }
func (s *Case) Pos() int        { return s.At }
func (s *Loop) Pos() int        { return s.At }
func (s *Leave) Pos() int       { return s.At }
func (s *Iterate) Pos() int     { return s.At }
func (s *Return) Pos() int      { return s.At }
func (s *Open) Pos() int        { return s.At }
func (s *Fetch) Pos() int       { return s.At }
func (s *Close) Pos() int       { return s.At }
func (s *Signal) Pos() int      { return s.At }
func (s *Diagnostics) Pos() int { return s.At }
func (s *SQL) Pos() int         { return s.At }

// Error is a body MySQL refuses, with the code, SQLSTATE and text MySQL
// gives.
type Error struct {
	Code  int
	State string
	Msg   string
}

func (e *Error) Error() string { return e.Msg }

func errorf(code int, state, format string, args ...any) *Error {
	return &Error{Code: code, State: state, Msg: fmt.Sprintf(format, args...)}
}
