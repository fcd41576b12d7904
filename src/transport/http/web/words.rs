//! Every word the web pages show, in English and Russian. A page asks for a [`Words`] by the
//! viewer's language and never writes a visible word of its own.

use shakmaty::Color;

use crate::game::EndReason;

/// The pages' language.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Tongue {
    En,
    Ru,
}

impl Tongue {
    pub fn code(self) -> &'static str {
        match self {
            Tongue::En => "en",
            Tongue::Ru => "ru",
        }
    }

    /// The first of the browser's `Accept-Language` ranges that the pages speak, by quality.
    pub fn from_accept(header: &str) -> Option<Tongue> {
        let mut ranges: Vec<(f32, Tongue)> = header
            .split(',')
            .take(32)
            .filter_map(|range| {
                let mut parts = range.split(';');
                let tag = parts.next()?.trim().to_ascii_lowercase();
                let q = parts
                    .find_map(|p| p.trim().strip_prefix("q=")?.parse::<f32>().ok())
                    .unwrap_or(1.0);
                let tongue = match tag.split('-').next()? {
                    "ru" => Tongue::Ru,
                    "en" => Tongue::En,
                    _ => return None,
                };
                Some((q, tongue))
            })
            .collect();
        ranges.sort_by(|a, b| b.0.total_cmp(&a.0));
        ranges.first().map(|r| r.1)
    }

    pub fn words(self) -> &'static Words {
        match self {
            Tongue::En => &EN,
            Tongue::Ru => &RU,
        }
    }
}

/// The texts of the pages in one language.
pub struct Words {
    pub title: &'static str,
    pub games: &'static str,
    pub events: &'static str,
    pub event: &'static str,
    pub game: &'static str,
    pub white: &'static str,
    pub black: &'static str,
    pub moves: &'static str,
    pub to_move: &'static str,
    pub result: &'static str,
    pub last_move: &'static str,
    pub in_progress: &'static str,
    pub awaiting_arbiter: &'static str,
    pub no_games: &'static str,
    pub page: &'static str,
    pub of: &'static str,
    pub previous: &'static str,
    pub next: &'static str,
    pub time_control: &'static str,
    pub clock: &'static str,
    pub no_limit: &'static str,
    pub on_leave: &'static str,
    pub draw_offer: &'static str,
    pub chain_head: &'static str,
    pub download_pgn: &'static str,
    pub notation: &'static str,
    pub language: &'static str,
    pub show: &'static str,
    pub position_after: &'static str,
    pub start_position: &'static str,
    pub latest: &'static str,
    pub delayed: &'static str,
    pub finished_only: &'static str,
    pub crosstable: &'static str,
    pub place: &'static str,
    pub player: &'static str,
    pub points: &'static str,
    pub played: &'static str,
    pub sb: &'static str,
    pub wins: &'static str,
    pub pairings: &'static str,
    pub round: &'static str,
    pub site: &'static str,
    pub started: &'static str,
    pub not_found: &'static str,
    pub not_found_text: &'static str,
    pub bad_request: &'static str,
    pub home: &'static str,
    pub arbiter: &'static str,
    pub login: &'static str,
    pub logout: &'static str,
    pub secret: &'static str,
    pub login_failed: &'static str,
    pub logged_in: &'static str,
    pub live: &'static str,
    pub board_of: &'static str,
    pub days: &'static str,
    pub over_by: &'static str,
    pub unavailable: &'static str,
}

impl Words {
    pub fn color(&self, color: Color) -> &'static str {
        match color {
            Color::White => self.white,
            Color::Black => self.black,
        }
    }

    /// How a game ended.
    pub fn reason(&self, reason: EndReason) -> &'static str {
        let en = std::ptr::eq(self, &EN);
        match (reason, en) {
            (EndReason::Checkmate, true) => "checkmate",
            (EndReason::Checkmate, false) => "мат",
            (EndReason::Stalemate, true) => "stalemate",
            (EndReason::Stalemate, false) => "пат",
            (EndReason::InsufficientMaterial, true) => "insufficient material",
            (EndReason::InsufficientMaterial, false) => "недостаточно материала",
            (EndReason::Resignation, true) => "resignation",
            (EndReason::Resignation, false) => "сдача",
            (EndReason::Agreement, true) => "draw agreed",
            (EndReason::Agreement, false) => "ничья по соглашению",
            (EndReason::Repetition, true) => "threefold repetition",
            (EndReason::Repetition, false) => "троекратное повторение",
            (EndReason::FiftyMoves, true) => "fifty-move rule",
            (EndReason::FiftyMoves, false) => "правило 50 ходов",
            (EndReason::TimeForfeit, true) => "time forfeit",
            (EndReason::TimeForfeit, false) => "просрочка времени",
            (EndReason::Silence, true) => "silence past the limit",
            (EndReason::Silence, false) => "молчание сверх срока",
            (EndReason::Adjudication, true) => "adjudication",
            (EndReason::Adjudication, false) => "решение арбитра",
            (EndReason::NoMoves, true) => "no moves left",
            (EndReason::NoMoves, false) => "нет ходов",
            (EndReason::DrawRule, true) => "draw by rule",
            (EndReason::DrawRule, false) => "ничья по правилам",
            (EndReason::Withdrawal, true) => "withdrawal",
            (EndReason::Withdrawal, false) => "выбытие из турнира",
        }
    }
}

static EN: Words = Words {
    title: "ccrelay: correspondence games",
    games: "Games",
    events: "Events",
    event: "Event",
    game: "Game",
    white: "White",
    black: "Black",
    moves: "Moves",
    to_move: "To move",
    result: "Result",
    last_move: "Last move",
    in_progress: "in progress",
    awaiting_arbiter: "awaiting the arbiter",
    no_games: "No games to show.",
    page: "Page",
    of: "of",
    previous: "previous",
    next: "next",
    time_control: "Time control",
    clock: "Time left",
    no_limit: "no limit",
    on_leave: "on leave",
    draw_offer: "Draw offered by",
    chain_head: "Journal chain head",
    download_pgn: "Download PGN",
    notation: "Notation",
    language: "Language",
    show: "Show",
    position_after: "Position after",
    start_position: "start",
    latest: "latest",
    delayed: "Moves are shown with a delay: the last ones are hidden while the game goes on.",
    finished_only: "Games of this event are shown once finished.",
    crosstable: "Crosstable",
    place: "Place",
    player: "Player",
    points: "Points",
    played: "Games",
    sb: "S-B",
    wins: "Wins",
    pairings: "Pairings by round",
    round: "Round",
    site: "Site",
    started: "Started",
    not_found: "Not found",
    not_found_text: "There is no such page, game or event here.",
    bad_request: "Bad request",
    home: "All games",
    arbiter: "Arbiter",
    login: "Log in",
    logout: "Log out",
    secret: "Admin secret",
    login_failed: "Login refused.",
    logged_in: "Logged in as the arbiter: every game is shown whole.",
    live: "live",
    board_of: "Board",
    days: "days",
    over_by: "by",
    unavailable: "The relay cannot answer now; try again shortly.",
};

static RU: Words = Words {
    title: "ccrelay: партии по переписке",
    games: "Партии",
    events: "Турниры",
    event: "Турнир",
    game: "Партия",
    white: "Белые",
    black: "Чёрные",
    moves: "Ходы",
    to_move: "Ход",
    result: "Результат",
    last_move: "Последний ход",
    in_progress: "идёт",
    awaiting_arbiter: "ждёт решения арбитра",
    no_games: "Нет партий для показа.",
    page: "Страница",
    of: "из",
    previous: "предыдущая",
    next: "следующая",
    time_control: "Контроль времени",
    clock: "Осталось времени",
    no_limit: "без ограничения",
    on_leave: "в отпуске",
    draw_offer: "Ничью предложили",
    chain_head: "Вершина цепочки журнала",
    download_pgn: "Скачать PGN",
    notation: "Нотация",
    language: "Язык",
    show: "Показать",
    position_after: "Позиция после",
    start_position: "начало",
    latest: "последняя",
    delayed: "Ходы показываются с задержкой: последние скрыты, пока партия идёт.",
    finished_only: "Партии этого турнира показываются после окончания.",
    crosstable: "Турнирная таблица",
    place: "Место",
    player: "Участник",
    points: "Очки",
    played: "Партий",
    sb: "Коэф. Бергера",
    wins: "Побед",
    pairings: "Пары по турам",
    round: "Тур",
    site: "Место проведения",
    started: "Начата",
    not_found: "Не найдено",
    not_found_text: "Здесь нет такой страницы, партии или турнира.",
    bad_request: "Неверный запрос",
    home: "Все партии",
    arbiter: "Арбитр",
    login: "Войти",
    logout: "Выйти",
    secret: "Секрет администратора",
    login_failed: "Вход отклонён.",
    logged_in: "Вы вошли как арбитр: все партии показаны полностью.",
    live: "в прямом эфире",
    board_of: "Доска",
    days: "дн.",
    over_by: "—",
    unavailable: "Сервер сейчас не может ответить; попробуйте чуть позже.",
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_best_spoken_language_wins() {
        assert_eq!(
            Tongue::from_accept("ru-RU,ru;q=0.9,en;q=0.8"),
            Some(Tongue::Ru)
        );
        assert_eq!(
            Tongue::from_accept("de,en;q=0.5,ru;q=0.4"),
            Some(Tongue::En)
        );
        assert_eq!(Tongue::from_accept("fr, *;q=0.1"), None);
        assert_eq!(Tongue::from_accept("en;q=0.2, ru;q=0.9"), Some(Tongue::Ru));
    }
}
