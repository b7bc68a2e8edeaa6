namespace esf {}
