"""tiebreaks"""
