package io.spectrum.hil.hw;

/** Chooses the board main: the real `spectrum board` command when present, else DevBoardMain. */
final class DevBoard {
    private DevBoard() {
    }

    static boolean boardCommandPresent() {
        try {
            Class.forName("io.spectrum.cli.BoardCommand");
            return true;
        } catch (ClassNotFoundException e) {
            return false;
        }
    }

    static BoardProcess launcher(BoardProcess base) {
        return boardCommandPresent() ? base : base.withMain(DevBoardMain.class.getName());
    }
}
