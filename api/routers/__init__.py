"""One thin router per resource: parse the request, call the library, return its JSON."""
