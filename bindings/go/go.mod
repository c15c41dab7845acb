module tigris.local/tigris

go 1.21
