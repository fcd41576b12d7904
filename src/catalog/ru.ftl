### Слова ccrelay по-русски. Ключи те же, что в en.ftl (это проверяет тест).
### Числа выбирают форму сами: [one] 1, 21 ...; [few] 2-4, 22-24 ...; [other] 5-20, 0 ...

## Тема письма: что случилось, без номера партии (он в теме первым).

summary-game-started = партия началась: вы играете { $side ->
        [white] белыми
       *[black] чёрными
    } против { $opponent }

summary-move = ход { $move }, { $mover }{ $offer ->
        [yes] , предложена ничья
       *[no] {""}
    }{ $cancels ->
        [yes] ; ваша условная линия отменена
       *[no] {""}
    }

summary-line-played = из вашей условной линии сыграно { $move }; { $left ->
        [one] осталась { $left } пара
        [few] осталось { $left } пары
       *[other] осталось { $left } пар
    }

summary-draw = { $by } { $act ->
        [offered] предлагает
        [accepted] принимает
       *[declined] отклоняет
    } ничью

summary-resigned = { $by } сдаётся

summary-claim = { $by } требует ничью ({ $claim ->
        [fifty] правило 50 ходов
       *[threefold] троекратное повторение
    })

summary-claim-with = { $by } требует ничью ({ $claim ->
        [fifty] правило 50 ходов
       *[threefold] троекратное повторение
    }) ходом { $move }

summary-leave = { $by } в отпуске с { $first } по { $last } ({ $days ->
        [one] { $days } день
        [few] { $days } дня
       *[other] { $days } дней
    }), его часы стоят

summary-time-up = { $player }: { $overdue ->
        [silence] превышен срок молчания
       *[time-control] время истекло
    }, { $forfeit ->
        [yes] поражение
       *[no] решает судья
    }

summary-reminder = ваш ход ждёт уже { $days ->
        [one] { $days } день
        [few] { $days } дня
       *[other] { $days } дней
    }

summary-result = партия окончена: { $pgn }

summary-refused = другой узел отклонил ваше действие { $number }: { $reason }

summary-message = сообщение от { $from }: { $text }

summary-recorded = записано в партию: { $what }

summary-welcome = { $name }: вы зарегистрированы; ходы вам пишутся в записи { $notation }

summary-event-started = турнир { $name } начался: у вас { $count ->
        [one] { $count } партия
        [few] { $count } партии
       *[other] { $count } партий
    }

summary-withdrawn = { $player } выбыл ({ $reason }): его неоконченные партии засчитаны поражениями

summary-event-game = { $game } ({ $side ->
        [white] белыми
       *[black] чёрными
    } против { $opponent })

## Под строкой письма.

mail-welcome =
    Ваш ключ: { $secret }
    Храните его в тайне: он доказывает, что письмо от вас.

    Чтобы сделать ход, напишите на { $relay }: в теме — номер партии и key:{ $secret },
    в тексте — ход на отдельной строке в любой записи (12. Кf3, 7163, g1-f3).
    Или ответьте на последнее письмо о партии.

mail-event-game = тур { $round }, доска { $board }: партия { $game }, вы играете { $side ->
        [white] белыми
       *[black] чёрными
    } против { $opponent }

mail-footer =
    Чтобы ответить, напишите ход отдельной строкой ("12. Кf3", "12. 7163"), можно с повтором:
    "повтор: <их последний ход>"; или "предлагаю ничью", "принимаю ничью", "отклоняю ничью",
    "сдаюсь". Номер партии оставьте первым в теме, вместе с ключом (key:ВАШ-КЛЮЧ).

mail-you-said = Ваше письмо:

mail-truncated = (Письмо длиннее, чем читает сервер; прочитано только его начало.)

## Письмо, когда ход за читателем (NOTIFY), страница настроек и отписка.

notify-subject = Ваш ход в партии { $game } ({ $white } – { $black })
notify-moved = { $opponent } сыграл { $move } в партии { $game }: ваш ход.
notify-started = Партия { $game } против { $opponent } началась: вы играете белыми, ваш ход.
notify-open = Открыть партию: { $link }
notify-board = Позиция в партии { $game }
notify-why = Вы просили присылать эти письма. Изменить или отключить: { $settings }
notify-stop = Больше не присылать
notify-digest-subject = { $count ->
        [one] { $count } партия ждёт
        [few] { $count } партии ждут
       *[other] { $count } партий ждут
    } вашего хода
notify-digest-game = { $game } ({ $white } – { $black }): { $move }
notify-digest-start = { $game } ({ $white } – { $black }): партия началась
notify-page-title = Письмо, когда ваш ход
notify-page-link = Почта
notify-page-intro = Сервер может присылать вам письмо, когда ход за вами: после каждого хода соперника или раз в день со всеми партиями, где ждут вашего хода. В письме — позиция и ссылка на партию; одна ссылка в нём отключает письма.
notify-page-address = Ваш адрес почты
notify-page-off = Не присылать
notify-page-each = Письмо после каждого хода соперника
notify-page-digest = Одно письмо в день, в этот час
notify-page-hour = Час (0–23)
notify-page-zone = Часовой пояс (например, Europe/Moscow; пусто — UTC)
notify-page-save = Сохранить
notify-page-saved = Сохранено.
notify-page-unavailable = Этот сервер не присылает таких писем: судья их не настроил.
notify-page-by-mail = Вы играете по почте: каждый ход соперника и так приходит вам письмом.
unsubscribe-title = Отключить письма о вашем ходе
unsubscribe-ask = Больше не присылать игроку { $player } письма о его ходе?
unsubscribe-button = Больше не присылать
unsubscribe-done = Готово: таких писем больше не будет. Включить их снова можно на странице настроек.
unsubscribe-refused = Эта ссылка недействительна: ничего не изменено.

## Часы, как их пишут письма и веб-страницы.

clock-time = { $sign }{ $days } дн. { $hours } ч

clock-days = { $days } дн.

clock-side = { $side ->
        [white] Белые
       *[black] Чёрные
    }: { $kind ->
        [waiting] ждут хода соперника
        [per-move] { $used } на этот ход{ $charged }, осталось { $left }
        [fischer] { $used } использовано{ $charged }, осталось { $left }
        [block] на часах { $left }, в банке { $bank }
       *[moves] { $used } использовано{ $charged }, осталось { $left } до { $until }-го хода
    }{ $state ->
        [running] {" "}(часы идут)
        [leave] {" "}(в отпуске)
       *[none] {""}
    }

clock-charged = , засчитано { $charged }

clock-line = часы: { $white } | { $black }

clock-doubling = { $side ->
        [white] Белые
       *[black] Чёрные
    }: { $day }-й день на этом ходу, теперь каждый день считается вдвойне

## Веб-страницы.

web-title = ccrelay: партии по переписке
web-games = Партии
web-events = Турниры
web-event = Турнир
web-game = Партия
web-white = Белые
web-black = Чёрные
web-moves = Ходы
web-to-move = Ход
web-result = Результат
web-last-move = Последний ход
web-in-progress = идёт
web-awaiting-arbiter = ждёт решения арбитра
web-no-games = Нет партий для показа.
web-page = Страница
web-of = из
web-previous = предыдущая
web-next = следующая
web-time-control = Контроль времени
web-clock = Осталось времени
web-no-limit = без ограничения
web-on-leave = в отпуске
web-draw-offer = Ничью предложили
web-chain-head = Вершина цепочки журнала
web-download-pgn = Скачать PGN
web-notation = Нотация
web-language = Язык
web-show = Показать
web-position-after = Позиция после
web-start-position = начало
web-latest = последняя
web-delayed = Ходы показываются с задержкой: последние скрыты, пока партия идёт.
web-finished-only = Партии этого турнира показываются после окончания.
web-crosstable = Турнирная таблица
web-place = Место
web-player = Участник
web-points = Очки
web-played = Партий
web-sb = Коэф. Бергера
web-wins = Побед
web-pairings = Пары по турам
web-round = Тур
web-site = Место проведения
web-started = Начата
web-not-found = Не найдено
web-not-found-text = Здесь нет такой страницы, партии или турнира.
web-bad-request = Неверный запрос
web-home = Все партии
web-arbiter = Арбитр
web-login = Войти
web-logout = Выйти
web-secret = Секрет администратора
web-login-failed = Вход отклонён.
web-logged-in = Вы вошли как арбитр: все партии показаны полностью.
web-live = в прямом эфире
web-board-of = Доска
web-over-by = —
web-unavailable = Сервер сейчас не может ответить; попробуйте чуть позже.

## Как окончилась партия.

end-checkmate = мат
end-stalemate = пат
end-insufficient-material = недостаточно материала
end-resignation = сдача
end-agreement = ничья по соглашению
end-repetition = троекратное повторение
end-fifty-moves = правило 50 ходов
end-time-forfeit = просрочка времени
end-silence = молчание сверх срока
end-adjudication = решение арбитра
end-no-moves = нет ходов
end-draw-rule = ничья по правилам
end-withdrawal = выбытие из турнира

## A player's own pages (/play)
play-title = Мои партии
play-login-title = Вход игрока
play-id = Имя игрока (id)
play-secret = Секрет
play-logged-in-as = Вы вошли как
play-your-move = Ваш ход
play-their-move = Ход соперника
play-opponent = Соперник
play-you-play = Вы играете
play-no-games = У вас пока нет партий.
play-move = Ваш ход
play-move-help = Перетащите фигуру, выберите два поля с клавиатуры (стрелки, Enter) или напишите ход в любой нотации: Кf3, Nf3, g1-f3, 7163.
play-check = Проверить
play-send = Отправить ход
play-read-as = Понято как
play-with-draw-offer = с предложением ничьей
play-offer-draw = Предложить ничью
play-accept-draw = Принять ничью
play-decline-draw = Отклонить ничью
play-draw-offered-to-you = Соперник предлагает ничью.
play-draw-offered-by-you = Ваше предложение ничьей в силе.
play-resign = Сдаться
play-resign-sure = Да, я сдаю эту партию
play-claim = Потребовать ничью
play-claim-threefold = троекратное повторение
play-claim-fifty = правило 50 ходов
play-claim-with = с ходом (необязательно)
play-messages = Сообщения
play-no-messages = В этой партии сообщений нет.
play-send-message = Отправить сообщение
play-conditional = Условная линия
play-conditional-help = Ход соперника, ваш ответ и так далее, в вашей нотации: 12... Кf6 13. Сg5
play-set-line = Задать линию
play-cancel-line = Отменить линию
play-leave = Отпуск
play-leave-first = Первый день
play-leave-days = Дней
play-take-leave = Взять отпуск во всех моих партиях
play-receipt = Квитанция
play-download-receipt = подписанная квитанция
play-done = Сделано
play-refused = Отклонено
play-forged = Эта форма устарела или пришла не с этого сайта: ничего не сделано. Обновите страницу и попробуйте снова.
play-you = вы
play-actions = В этой партии
play-login-needed = Войдите, чтобы играть свои партии.
