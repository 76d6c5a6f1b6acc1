/*
 * Test only, never shipped: a stand-in for Windows' bcryptprimitives.dll, which wine 8
 * lacks. Rust's standard library for x86_64-pc-windows-gnu imports ProcessPrng from it
 * (Windows 10 and later have it); this one exports ProcessPrng on top of RtlGenRandom
 * (advapi32's SystemFunction036), so the programs we ship run unchanged under wine.
 * Build: x86_64-w64-mingw32-gcc -shared -o bcryptprimitives.dll bcryptprimitives.c
 */
#include <windows.h>

BOOLEAN WINAPI SystemFunction036(PVOID buffer, ULONG length);

__declspec(dllexport) BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T length)
{
	while (length > 0) {
		ULONG chunk = length > 0x10000000 ? 0x10000000 : (ULONG)length;
		if (!SystemFunction036(data, chunk))
			return FALSE;
		data += chunk;
		length -= chunk;
	}
	return TRUE;
}
