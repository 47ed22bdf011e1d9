"""The write layer: a chapter result validated, extracted into assertions and folded into
versioned chains by the rules, in one transaction."""
