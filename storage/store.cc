// placeholder: filled in by the First light work
