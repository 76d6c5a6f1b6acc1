/*
 * A stand-in for CheckerBoard: loads the engine library and calls it exactly as
 * CheckerBoard does (same prototypes, calling convention and buffer sizes; getmove on
 * one thread while another thread sets *playnow). The Rust tests drive it line by line
 * on stdin and check every answer against the rules core.
 *
 *   cmd <text>                                   -> reply <ret> <text>
 *   move <color> <maxtime> <info> <moreinfo> <64 board ints, board[x][y] x-major>
 *                                                -> result <ret> <64 ints> <CBmove ints>
 *                                                   status <text>
 *   playnow <color> <delay_ms> <64 ints>         -> latency <ms>, then as move
 *   abuse                                        -> abuse <answers>  (bad pointers and input)
 *   quit
 *
 * Texts are escaped: backslash as \\, newline as \n. The CBmove ints are jumps, newpiece,
 * oldpiece, from.x, from.y, to.x, to.y, path[12] (x y), del[12] (x y), delpiece[12].
 * Build: cc harness.c -ldl -lpthread  /  x86_64-w64-mingw32-gcc harness.c
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef _WIN32
#include <windows.h>
#define CALLCONV __stdcall
#else
#include <dlfcn.h>
#include <pthread.h>
#include <time.h>
#include <unistd.h>
#define CALLCONV
#endif

struct coor { int x; int y; };
struct CBmove {
	int jumps, newpiece, oldpiece;
	struct coor from, to;
	struct coor path[12];
	struct coor del[12];
	int delpiece[12];
};
typedef int Board8x8[8][8];
typedef int (CALLCONV *GETMOVE)(Board8x8, int, double, char[1024], int *, int, int, struct CBmove *);
typedef int (CALLCONV *ENGINECOMMAND)(const char *, char[1024]);
typedef int (CALLCONV *ISLEGAL)(Board8x8, int, int, int, struct CBmove *);

static GETMOVE getmove;
static ENGINECOMMAND enginecommand;
static ISLEGAL islegal;
static volatile int playnow;

static double now_ms(void)
{
#ifdef _WIN32
	LARGE_INTEGER f, c;
	QueryPerformanceFrequency(&f);
	QueryPerformanceCounter(&c);
	return 1000.0 * (double)c.QuadPart / (double)f.QuadPart;
#else
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return 1000.0 * t.tv_sec + t.tv_nsec / 1e6;
#endif
}

static void sleep_ms(int ms)
{
#ifdef _WIN32
	Sleep(ms);
#else
	usleep(ms * 1000);
#endif
}

static void print_escaped(const char *s)
{
	for (; *s; ++s) {
		if (*s == '\\')
			fputs("\\\\", stdout);
		else if (*s == '\n')
			fputs("\\n", stdout);
		else if (*s != '\r')
			putchar(*s);
	}
}

static int load(const char *path)
{
#ifdef _WIN32
	HMODULE lib = LoadLibraryA(path);
	if (!lib)
		return 0;
	getmove = (GETMOVE)(void (*)(void))GetProcAddress(lib, "getmove");
	enginecommand = (ENGINECOMMAND)(void (*)(void))GetProcAddress(lib, "enginecommand");
	islegal = (ISLEGAL)(void (*)(void))GetProcAddress(lib, "islegal");
#else
	void *lib = dlopen(path, RTLD_NOW);
	if (!lib) {
		fprintf(stderr, "%s\n", dlerror());
		return 0;
	}
	*(void **)&getmove = dlsym(lib, "getmove");
	*(void **)&enginecommand = dlsym(lib, "enginecommand");
	*(void **)&islegal = dlsym(lib, "islegal");
#endif
	return getmove && enginecommand && islegal;
}

static int read_board(char **rest, Board8x8 b)
{
	for (int i = 0; i < 64; ++i) {
		char *end;
		long v = strtol(*rest, &end, 10);
		if (end == *rest)
			return 0;
		b[i / 8][i % 8] = (int)v;
		*rest = end;
	}
	return 1;
}

static void print_result(int ret, Board8x8 b, const struct CBmove *m, const char *status)
{
	printf("result %d", ret);
	for (int i = 0; i < 64; ++i)
		printf(" %d", b[i / 8][i % 8]);
	printf(" %d %d %d %d %d %d %d", m->jumps, m->newpiece, m->oldpiece, m->from.x, m->from.y, m->to.x, m->to.y);
	for (int i = 0; i < 12; ++i)
		printf(" %d %d", m->path[i].x, m->path[i].y);
	for (int i = 0; i < 12; ++i)
		printf(" %d %d", m->del[i].x, m->del[i].y);
	for (int i = 0; i < 12; ++i)
		printf(" %d", m->delpiece[i]);
	printf("\nstatus ");
	print_escaped(status);
	printf("\n");
}

static int setter_delay;
static double set_at;

#ifdef _WIN32
static DWORD WINAPI setter(LPVOID arg)
#else
static void *setter(void *arg)
#endif
{
	(void)arg;
	sleep_ms(setter_delay);
	set_at = now_ms();
	playnow = 1;
	return 0;
}

static void do_move(char *rest, int with_playnow)
{
	int color, info = 0, moreinfo = 0, delay = 0;
	double maxtime = 1000.0;
	char *end;
	Board8x8 b;
	struct CBmove m;
	static char status[1024];

	color = (int)strtol(rest, &end, 10);
	rest = end;
	if (with_playnow) {
		delay = (int)strtol(rest, &end, 10);
		rest = end;
	}
	else {
		maxtime = strtod(rest, &end);
		rest = end;
		info = (int)strtol(rest, &end, 10);
		rest = end;
		moreinfo = (int)strtol(rest, &end, 10);
		rest = end;
	}
	if (!read_board(&rest, b)) {
		printf("error bad board\n");
		return;
	}
	memset(&m, 0xff, sizeof(m)); /* -1 everywhere: shows what the engine wrote */
	strcpy(status, "untouched");
	playnow = 0;
	if (with_playnow) {
		setter_delay = delay;
#ifdef _WIN32
		HANDLE t = CreateThread(NULL, 0, setter, NULL, 0, NULL);
#else
		pthread_t t;
		pthread_create(&t, NULL, setter, NULL);
#endif
		int ret = getmove(b, color, maxtime, status, (int *)&playnow, info, moreinfo, &m);
		double back = now_ms();
#ifdef _WIN32
		WaitForSingleObject(t, INFINITE);
		CloseHandle(t);
#else
		pthread_join(t, NULL);
#endif
		printf("latency %.3f\n", back - set_at);
		print_result(ret, b, &m, status);
	}
	else {
		int ret = getmove(b, color, maxtime, status, (int *)&playnow, info, moreinfo, &m);
		print_result(ret, b, &m, status);
	}
}

/* Bad pointers and bad input: every call must return; prints what came back. */
static void abuse(void)
{
	char reply[1024];
	char status[1024];
	char big[5000];
	Board8x8 b;
	struct CBmove m;
	int pn = 0;

	printf("abuse");
	printf(" %d", enginecommand(NULL, reply));
	printf(" %d", enginecommand("name", NULL));
	printf(" %d", enginecommand(NULL, NULL));
	memset(big, 0xC3, sizeof(big) - 1); /* not UTF-8, no spaces */
	big[sizeof(big) - 1] = 0;
	printf(" %d", enginecommand(big, reply));
	printf(" %d", enginecommand("get movelist \xff\xfe:W::B", reply));
	printf(" %d", enginecommand("set hashsize -5", reply));
	printf(" %d", enginecommand("set gamehist W:W99:B1", reply));

	memset(b, 0, sizeof(b));
	b[0][0] = 6;
	b[7][7] = 5;
	printf(" %d", getmove(NULL, 1, 0.01, status, &pn, 0, 0, &m));
	printf(" %d", getmove(b, 1, 0.01, NULL, NULL, 0, 0, NULL)); /* legal, null extras */
	b[0][0] = 6;
	b[7][7] = 5;
	printf(" %d", getmove(b, 7, 0.01, status, &pn, 0, 0, &m)); /* bad colour */
	b[3][3] = 1234;                                             /* bad piece code */
	printf(" %d", getmove(b, 1, 0.01, status, &pn, 0, 0, &m));
	b[3][3] = 0;
	for (int x = 0; x < 8; ++x)
		for (int y = 0; y < 8; ++y)
			b[x][y] = ((x + y) % 2 == 0) ? 5 : 0; /* 32 white men */
	printf(" %d", getmove(b, 1, 0.01, status, &pn, 0, 0, &m));
	printf(" %d", getmove(b, 1, -1e300, status, &pn, -1, -1, &m));
	printf(" %d", islegal(NULL, 1, 22, 19, &m));
	printf(" %d", islegal(b, 1, 99, -3, NULL));
	printf("\n");
}

int main(int argc, char **argv)
{
	static char line[1 << 17];
	static char reply[1024];

	if (argc != 2) {
		fprintf(stderr, "usage: harness <engine library>\n");
		return 2;
	}
	if (!load(argv[1])) {
		printf("error cannot load %s\n", argv[1]);
		return 1;
	}
	printf("loaded\n");
	fflush(stdout);
	while (fgets(line, sizeof(line), stdin)) {
		line[strcspn(line, "\r\n")] = 0;
		if (strncmp(line, "cmd ", 4) == 0) {
			strcpy(reply, "untouched");
			int ret = enginecommand(line + 4, reply);
			printf("reply %d ", ret);
			print_escaped(reply);
			printf("\n");
		}
		else if (strncmp(line, "move ", 5) == 0)
			do_move(line + 5, 0);
		else if (strncmp(line, "playnow ", 8) == 0)
			do_move(line + 8, 1);
		else if (strcmp(line, "abuse") == 0)
			abuse();
		else if (strcmp(line, "quit") == 0)
			break;
		else
			printf("error unknown line\n");
		fflush(stdout);
	}
	return 0;
}
