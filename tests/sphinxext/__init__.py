"""Tests of the Sphinx extension, through real builds."""
