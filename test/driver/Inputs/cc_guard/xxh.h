/* The idiom of xxHash's header (bundled by zstd and others): the builtin
   when the compiler has it, portable C otherwise. */
#ifndef XXH_H
#define XXH_H
#ifdef __has_builtin
#  define XXH_HAS_BUILTIN(x) __has_builtin(x)
#else
#  define XXH_HAS_BUILTIN(x) 0
#endif
#if XXH_HAS_BUILTIN(__builtin_rotateleft32)
#  define XXH_rotl32 __builtin_rotateleft32
#else
#  define XXH_rotl32(x, r) (((x) << (r)) | ((x) >> (32 - (r))))
#endif
#endif
