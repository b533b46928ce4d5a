//! Whether a `fetch` call passes an abort `signal` (docs/spec/rules.md §10): through its options, or through a
//! `new Request(url, options)` that may carry one.

use oxc_ast::ast::*;

/// Whether a `fetch` call's arguments pass no `signal`: no options at all, or an options literal without a
/// `signal` key, a spread or a computed key. Options built elsewhere (an identifier, a call) may carry one, and
/// so may a `new Request(url, options)` passed as the first argument (docs/spec/rules.md §10, revision 2).
pub(super) fn passes_no_signal(arguments: &[Argument]) -> bool {
    if arguments.iter().any(Argument::is_spread) {
        return false;
    }
    if let Some(Expression::NewExpression(request)) =
        arguments.first().and_then(Argument::as_expression).map(|e| e.get_inner_expression())
        && is_request_with_signal(request)
    {
        return false;
    }
    options_lack_signal(arguments.get(1))
}

/// `new Request(url, options)` whose options may carry a `signal`.
pub(super) fn is_request_with_signal(request: &NewExpression) -> bool {
    request.callee.get_inner_expression().is_specific_id("Request") && !options_lack_signal(request.arguments.get(1))
}

/// Do these options (a call's argument) leave `signal` out? Only a missing argument or an object literal
/// without a `signal` key, a spread or a computed key says so.
fn options_lack_signal(options: Option<&Argument>) -> bool {
    let Some(options) = options else { return true };
    let Some(options) = options.as_expression() else { return false };
    let Expression::ObjectExpression(options) = options.get_inner_expression() else {
        return false;
    };
    options.properties.iter().all(|p| match p {
        ObjectPropertyKind::ObjectProperty(p) => !p.computed && !p.key.is_specific_static_name("signal"),
        ObjectPropertyKind::SpreadProperty(_) => false,
    })
}
