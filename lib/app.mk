# lib/app.mk: fragment of the app module (sources, headers, tests, tools).
