// A module without pdl.pattern.
module {}
