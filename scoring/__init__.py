"""Real next-token letter scoring of causal LMs on multiple-choice questions."""
