# lib/layout.mk: fragment of the layout module (sources, headers, tests, tools).
