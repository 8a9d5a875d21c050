// Package lang owns the surface syntax of sqlearn's linear-algebra scripts:
// the lexer, the parser, the syntax tree and a printer that writes a tree
// back as source. It knows nothing of matrices, execution or SQL; the
// optimizer package gives the tree its meaning.
//
// The language is a small subset of R:
//
//	x = t(X) %*% y            # assignment (also x <- ...)
//	while (i < 10) { ... }    # loops and conditions take a 1x1 value
//	for (i in 1:n) { ... }    # inclusive integer range, ':' only here
//	if (a > b) { ... } else { ... }
//	print("loss", sum(g^2))   # any expression can stand as a statement
//
// Precedence, loosest first: || |, && &, !, comparisons, + -, * /, %*%,
// unary minus, ^ (right associative), calls. Newlines end statements except
// inside parentheses or after a binary operator; ';' also ends one. '#'
// starts a comment. @name names a session variable bound by the caller.
//
// This package must not import the optimizer, matrix, SQL or storage code.
package lang
