package connectx;

import java.util.ArrayList;
import java.util.List;

/** Stand-in for the CXGame board: M rows (row 0 is the top), N columns, X in a row wins. */
public class CXBoard {
    public final int M, N, X;
    private final int[][] cells; // 0 empty, 1 first player, 2 second player
    private final List<CXCell> marked = new ArrayList<>();

    public CXBoard(int M, int N, int X) {
        this.M = M;
        this.N = N;
        this.X = X;
        cells = new int[M][N];
    }

    public CXBoard copy() {
        CXBoard b = new CXBoard(M, N, X);
        for (CXCell c : marked) b.markColumn(c.j);
        return b;
    }

    public CXCell getLastMove() {
        return marked.isEmpty() ? null : marked.get(marked.size() - 1);
    }

    public CXCell[] getMarkedCells() {
        return marked.toArray(new CXCell[0]);
    }

    public Integer[] getAvailableColumns() {
        List<Integer> cols = new ArrayList<>();
        for (int j = 0; j < N; j++) if (cells[0][j] == 0) cols.add(j);
        return cols.toArray(new Integer[0]);
    }

    public int numOfMarkedCells() {
        return marked.size();
    }

    public boolean fullColumn(int col) {
        return cells[0][col] != 0;
    }

    /** Drops the side to move's piece in col (legal, not full); true if it makes X in a row. */
    public boolean markColumn(int col) {
        int i = M - 1;
        while (cells[i][col] != 0) i--;
        int stone = marked.size() % 2 + 1;
        cells[i][col] = stone;
        marked.add(new CXCell(i, col));
        int[][] dirs = {{0, 1}, {1, 0}, {1, 1}, {1, -1}};
        for (int[] d : dirs) {
            int count = 1;
            for (int s = -1; s <= 1; s += 2) {
                int y = i + s * d[0], x = col + s * d[1];
                while (y >= 0 && y < M && x >= 0 && x < N && cells[y][x] == stone) {
                    count++;
                    y += s * d[0];
                    x += s * d[1];
                }
            }
            if (count >= X) return true;
        }
        return false;
    }
}
