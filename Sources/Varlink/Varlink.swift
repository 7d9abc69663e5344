// Varlink (UAPI.20) over Unix stream sockets.
