// A test opponent for ManKalah.jar (tests/mkagent.rs), run as a single source file
// (`java SwapAgent.java`): as North it answers South's first move with SWAP (the pie rule);
// afterwards, and as South, it sows the first non-empty hole of its side. MKRefAgent, the
// referee's own test agent, never swaps from the start position (tests/mkagent.rs says why).
import java.io.BufferedReader;
import java.io.InputStreamReader;

public class SwapAgent {
    public static void main(String[] args) throws Exception {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in));
        boolean south = false;
        boolean moved = false;
        String line;
        while ((line = in.readLine()) != null) {
            String[] f = line.split(";");
            if (f[0].equals("END")) {
                return;
            } else if (f[0].equals("START")) {
                south = f[1].equals("South");
                if (south) {
                    play(1);
                    moved = true;
                }
            } else if (f[0].equals("CHANGE")) {
                if (f[1].equals("SWAP")) {
                    south = !south;
                }
                if (!f[3].equals("YOU")) {
                    continue;
                }
                if (!south && !moved) {
                    System.out.print("SWAP\n");
                    System.out.flush();
                    south = true;
                    moved = true;
                    continue;
                }
                String[] state = f[2].split(",");
                int base = south ? 8 : 0;
                for (int hole = 1; hole <= 7; hole++) {
                    if (Integer.parseInt(state[base + hole - 1]) > 0) {
                        play(hole);
                        break;
                    }
                }
                moved = true;
            }
        }
    }

    static void play(int hole) {
        System.out.print("MOVE;" + hole + "\n");
        System.out.flush();
    }
}
