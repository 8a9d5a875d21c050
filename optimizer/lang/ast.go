package lang

import (
	"strconv"
	"strings"
)

// Pos is a 1-based line and column (counted in bytes) in the script.
type Pos struct{ Line, Col int }

func (p Pos) String() string { return strconv.Itoa(p.Line) + ":" + strconv.Itoa(p.Col) }

// Expr is an expression node.
type Expr interface {
	Pos() Pos
	expr()
}

// Stmt is a statement node.
type Stmt interface {
	Pos() Pos
	stmt()
}

// Program is a parsed script.
type Program struct{ Stmts []Stmt }

type (
	// Num is a numeric literal; TRUE and FALSE parse as 1 and 0.
	Num struct {
		At    Pos
		Value float64
	}
	// Str is a string literal, used for queries, table names and messages.
	Str struct {
		At    Pos
		Value string
	}
	// Ident names a script variable, or with Session set a variable the
	// caller binds (written @name).
	Ident struct {
		At      Pos
		Name    string
		Session bool
	}
	// Unary is -x or !x.
	Unary struct {
		At Pos
		Op string
		X  Expr
	}
	// Binary is l Op r where Op is one of %*% + - * / ^ == != < <= > >= && || & |.
	Binary struct {
		At   Pos
		Op   string
		L, R Expr
	}
	// Call is name(args...).
	Call struct {
		At   Pos
		Name string
		Args []Expr
	}
)

type (
	// Assign is name = value.
	Assign struct {
		At    Pos
		Name  string
		Value Expr
	}
	// ExprStmt evaluates X for its effect or, as a script's last
	// top-level statement, for its value.
	ExprStmt struct {
		At Pos
		X  Expr
	}
	// While repeats Body while Cond (a 1x1 value) is nonzero.
	While struct {
		At   Pos
		Cond Expr
		Body []Stmt
	}
	// For runs Body with Var = From, From+1, ..., To (none when To < From).
	For struct {
		At       Pos
		Var      string
		From, To Expr
		Body     []Stmt
	}
	// If runs Then when Cond is nonzero, else Else (which may be empty).
	If struct {
		At         Pos
		Cond       Expr
		Then, Else []Stmt
	}
)

func (n *Num) Pos() Pos    { return n.At }
func (n *Str) Pos() Pos    { return n.At }
func (n *Ident) Pos() Pos  { return n.At }
func (n *Unary) Pos() Pos  { return n.At }
func (n *Binary) Pos() Pos { return n.At }
func (n *Call) Pos() Pos   { return n.At }

func (*Num) expr()    {}
func (*Str) expr()    {}
func (*Ident) expr()  {}
func (*Unary) expr()  {}
func (*Binary) expr() {}
func (*Call) expr()   {}

func (s *Assign) Pos() Pos   { return s.At }
func (s *ExprStmt) Pos() Pos { return s.At }
func (s *While) Pos() Pos    { return s.At }
func (s *For) Pos() Pos      { return s.At }
func (s *If) Pos() Pos       { return s.At }

func (*Assign) stmt()   {}
func (*ExprStmt) stmt() {}
func (*While) stmt()    {}
func (*For) stmt()      {}
func (*If) stmt()       {}

// Format writes e back as source, parenthesising every compound operand so
// that the text parses to the same tree whatever the precedence rules.
func Format(e Expr) string {
	var b strings.Builder
	formatExpr(&b, e)
	return b.String()
}

func formatExpr(b *strings.Builder, e Expr) {
	switch e := e.(type) {
	case *Num:
		b.WriteString(strconv.FormatFloat(e.Value, 'g', -1, 64))
	case *Str:
		b.WriteString(quote(e.Value))
	case *Ident:
		if e.Session {
			b.WriteByte('@')
		}
		b.WriteString(e.Name)
	case *Unary:
		b.WriteString(e.Op)
		formatOperand(b, e.X)
	case *Binary:
		formatOperand(b, e.L)
		b.WriteString(" " + e.Op + " ")
		formatOperand(b, e.R)
	case *Call:
		b.WriteString(e.Name + "(")
		for i, a := range e.Args {
			if i > 0 {
				b.WriteString(", ")
			}
			formatExpr(b, a)
		}
		b.WriteByte(')')
	}
}

func formatOperand(b *strings.Builder, e Expr) {
	switch e.(type) {
	case *Unary, *Binary:
		b.WriteByte('(')
		formatExpr(b, e)
		b.WriteByte(')')
	case *Num:
		// A negative literal reads as unary minus, which binds looser than ^.
		if e.(*Num).Value < 0 {
			b.WriteByte('(')
			formatExpr(b, e)
			b.WriteByte(')')
			return
		}
		formatExpr(b, e)
	default:
		formatExpr(b, e)
	}
}

// FormatProgram writes a whole program back as source, one statement per
// line, blocks indented by two spaces.
func FormatProgram(p *Program) string {
	var b strings.Builder
	formatStmts(&b, p.Stmts, 0)
	return b.String()
}

func formatStmts(b *strings.Builder, stmts []Stmt, depth int) {
	for _, s := range stmts {
		b.WriteString(strings.Repeat("  ", depth))
		switch s := s.(type) {
		case *Assign:
			b.WriteString(s.Name + " = " + Format(s.Value))
		case *ExprStmt:
			b.WriteString(Format(s.X))
		case *While:
			b.WriteString("while (" + Format(s.Cond) + ") {\n")
			formatStmts(b, s.Body, depth+1)
			b.WriteString(strings.Repeat("  ", depth) + "}")
		case *For:
			b.WriteString("for (" + s.Var + " in ")
			formatOperand(b, s.From)
			b.WriteByte(':')
			formatOperand(b, s.To)
			b.WriteString(") {\n")
			formatStmts(b, s.Body, depth+1)
			b.WriteString(strings.Repeat("  ", depth) + "}")
		case *If:
			b.WriteString("if (" + Format(s.Cond) + ") {\n")
			formatStmts(b, s.Then, depth+1)
			b.WriteString(strings.Repeat("  ", depth) + "}")
			if len(s.Else) > 0 {
				b.WriteString(" else {\n")
				formatStmts(b, s.Else, depth+1)
				b.WriteString(strings.Repeat("  ", depth) + "}")
			}
		}
		b.WriteByte('\n')
	}
}

// quote writes a string literal using only the escapes the lexer reads.
func quote(s string) string {
	r := strings.NewReplacer("\\", "\\\\", "\"", "\\\"", "\n", "\\n", "\t", "\\t")
	return "\"" + r.Replace(s) + "\""
}
