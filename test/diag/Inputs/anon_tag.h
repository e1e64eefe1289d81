/* An unnamed struct declared in a header, which parcc does not edit. */
extern struct { int a; } header_anon;
