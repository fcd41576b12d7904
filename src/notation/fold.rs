//! Look-alike folding: the characters people type in place of the ones they mean.
//!
//! Real movetext mixes scripts. Seed 002 writes `gxfЗ` with a Cyrillic `З` for the digit 3 and
//! `Вxе5` with a Cyrillic `В` and `е`; seed 004 writes `Сb5—а4` and `Kf6:е4`; seed 001 lists the
//! files as `а, Ь, с`. Folding maps each such character to the one it stands for, so the rest of
//! the reader only ever sees Latin files, ASCII digits, `-` for every dash and `x` for every
//! capture mark. Piece letters fold to a *shape* (Cyrillic `К` and Latin `K` are one shape), and
//! the language decides what the shape means.
//!
//! ```
//! use ccrelay::notation::fold::fold_token;
//! assert_eq!(fold_token("gxfЗ"), "gxf3");
//! assert_eq!(fold_token("Kf6:е4"), "Kf6xe4");
//! assert_eq!(fold_token("О—О"), "O-O");
//! ```

/// Folds one character of a move token.
pub fn fold_char(c: char) -> char {
    match c {
        // Cyrillic capitals that look like Latin capitals.
        'А' => 'A',
        'В' => 'B',
        'С' => 'C',
        'Е' => 'E',
        'К' => 'K',
        'М' => 'M',
        'Н' => 'H',
        'О' => 'O',
        'Р' => 'P',
        'Т' => 'T',
        'Х' => 'X',
        'І' => 'I',
        // Cyrillic small letters that look like Latin files or marks.
        'а' => 'a',
        'с' => 'c',
        'е' => 'e',
        'о' => 'o',
        'р' => 'p',
        'х' => 'x',
        'Ь' | 'ь' => 'b',
        'і' => 'i',
        // Cyrillic letters that look like digits.
        'З' | 'з' => '3',
        'б' => '6',
        // Every dash and minus.
        '‐' | '‑' | '‒' | '–' | '—' | '―' | '−' => '-',
        // Capture marks.
        '×' | ':' => 'x',
        // Figurines: black ones read like white ones.
        '♚' => '♔',
        '♛' => '♕',
        '♜' => '♖',
        '♝' => '♗',
        '♞' => '♘',
        '♟' => '♙',
        // Full-width digits and letters some input methods produce.
        '０'..='９' => char::from(b'0' + (c as u32 - '０' as u32) as u8),
        other => other,
    }
}

/// Folds a whole token.
pub fn fold_token(token: &str) -> String {
    token.chars().map(fold_char).collect()
}

/// Folds piece letters to their shape: look-alikes folded, and the second letter of a
/// two-letter name (Russian `Кр`, `КР`, `Kp`) in lower case.
pub fn fold_piece_letters(letters: &str) -> String {
    letters
        .chars()
        .map(fold_char)
        .enumerate()
        .map(|(i, c)| {
            if i == 0 {
                c
            } else {
                c.to_lowercase().next().unwrap_or(c)
            }
        })
        .collect()
}

/// The figurine's piece, for a folded character.
pub fn figurine_role(c: char) -> Option<shakmaty::Role> {
    use shakmaty::Role;
    Some(match c {
        '♔' => Role::King,
        '♕' => Role::Queen,
        '♖' => Role::Rook,
        '♗' => Role::Bishop,
        '♘' => Role::Knight,
        '♙' => Role::Pawn,
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seed_look_alikes() {
        for (written, folded) in [
            ("gxfЗ", "gxf3"),
            ("Вxе5", "Bxe5"),
            ("Сb5—а4", "Cb5-a4"),
            ("Kb8—с6", "Kb8-c6"),
            ("ехd6", "exd6"),
            ("е.р.", "e.p."),
            ("ахb5", "axb5"),
            ("0—0", "0-0"),
            ("Ь", "b"),
            ("е2–е4", "e2-e4"),
            ("a8=♛", "a8=♕"),
        ] {
            assert_eq!(fold_token(written), folded, "{written}");
        }
    }

    #[test]
    fn piece_shapes() {
        assert_eq!(fold_piece_letters("Кр"), "Kp");
        assert_eq!(fold_piece_letters("КР"), "Kp");
        assert_eq!(fold_piece_letters("Kp"), "Kp");
        assert_eq!(fold_piece_letters("С"), "C");
        assert_eq!(fold_piece_letters("Ф"), "Ф");
    }
}
