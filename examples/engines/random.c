/* A random engine in C: engine protocol 1 with a minimal scan of the "legal" array.
 * Build: cc -O2 -o random-engine random.c; run by a host, e.g.
 *   python -m bohmisch_watten arena --bots "engine:./random-engine,random" */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char line[1 << 21]; /* the host's lines stay far below 2 MiB */

int main(void) {
    while (fgets(line, sizeof line, stdin)) { /* EOF: the host is gone */
        if (strstr(line, "\"type\":\"hello\"")) {
            puts("{\"type\":\"hello\",\"protocol\":1,\"name\":\"random.c\",\"author\":\"example\"}");
        } else if (strstr(line, "\"type\":\"new_game\"")) {
            char *seed = strstr(line, "\"seed\":");
            srand(seed ? (unsigned)strtoul(seed + 7, NULL, 10) : 0u);
        } else if (strstr(line, "\"type\":\"decide\"")) {
            /* "legal":["a","b",...]: action texts hold no quotes or backslashes */
            char *p = strstr(line, "\"legal\":[") + 9, *start[256];
            int count = 0;
            while (*p == '"' && count < 256) {
                start[count++] = ++p;
                p = strchr(p, '"') + 1;
                if (*p == ',') p++;
            }
            char *pick = start[rand() % count];
            printf("{\"type\":\"action\",\"action\":\"%.*s\"}\n", (int)(strchr(pick, '"') - pick), pick);
        } else if (strstr(line, "\"type\":\"quit\"")) {
            break;
        }
        fflush(stdout);
    }
    return 0;
}
