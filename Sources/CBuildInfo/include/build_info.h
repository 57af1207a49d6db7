#ifndef METRONOME_BUILD_INFO_H
#define METRONOME_BUILD_INFO_H

/* The Git commit this binary was built from, as Package.swift read it ("unknown" outside a
   clone); a C string because Swift's conditions carry no values. */
const char *metronome_build_commit(void);

#endif
