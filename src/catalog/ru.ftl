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

summary-recorded-move = ваш ход { $move } записан в партию

summary-refill = { $by } ({ $side ->
        [white] белые
       *[black] чёрные
    }): из банка на часы { $days ->
        [one] переведён { $days } день
        [few] переведены { $days } дня
       *[other] переведено { $days } дней
    }

summary-long-reflection = { $by } ({ $side ->
        [white] белые
       *[black] чёрные
    }) заявляет долгое обдумывание хода { $number }: срок молчания не завершит на нём партию

summary-welcome = { $name }: вы зарегистрированы; ходы вам пишутся в записи { $notation }

summary-event-started = турнир { $name } начался: у вас { $count ->
        [one] { $count } партия
        [few] { $count } партии
       *[other] { $count } партий
    }

summary-withdrawn = { $player } выбыл ({ $reason }): его неоконченные партии засчитаны поражениями

summary-remote = удалённый сервер { $remote } ({ $player }): { $health ->
        [failing] не отвечает уже час; предложенные ходы ждут и будут отправлены, когда сервер ответит
        [working] снова отвечает; ожидавшие ходы отправляются
       *[paused] отклонил имя или пароль учётной записи; она приостановлена до изменения настроек
    }

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
notify-page-link = Письмо, когда мой ход
play-radio-next-code = Вы играете сообщениями APRS с позывного { $callsign }. Следующий код вашей карточки: номер { $number } (принимается любой из десяти первых неиспользованных).
play-radio-card-used = Вы играете сообщениями APRS с позывного { $callsign }. Карточка израсходована: попросите у судьи новую.
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
play-you = Вы
play-actions = В этой партии
play-login-needed = Войдите, чтобы играть свои партии.
play-bank = Банк времени
play-bank-days = Дней из банка на часы
play-refill = Пополнить часы
play-silence = Объявить долгое обдумывание
play-silence-help = Предел молчания не закончит партию на вашем текущем или следующем ходе; контроль времени по-прежнему действует.
play-bank-left = банк { $bank }

## Ответы сервера на страницах игрока.

reply-moved = Ход { $move } принят{ $offer ->
        [yes] , с предложением ничьей
       *[no] {""}
    }.
reply-draw-offered = Вы предложили ничью.
reply-draw-accepted = Вы приняли ничью: партия закончилась вничью.
reply-draw-declined = Вы отклонили предложение ничьей.
reply-resigned = Вы сдали партию.
reply-claimed = Ничья по { $claim ->
        [fifty] правилу 50 ходов
       *[threefold] троекратному повторению
    } засчитана.
reply-line-set = Условная линия задана: { $line }.
reply-line-pair = если { $expected }, то { $answer }
reply-line-cancelled = Условная линия отменена.
reply-message-sent = Сообщение отправлено.
reply-mended = Оно поправлено для читателя: переносы строк показаны как « / », символы, которые прячут или переставляют текст, убраны, длина не больше 500 знаков.
reply-message-empty = Сообщение не отправлено: в нём не осталось читаемого текста.
reply-message-not-sent = Сообщение не отправлено.
reply-leave-taken = Отпуск с { $first } по { $last } ({ $days ->
        [one] { $days } день
        [few] { $days } дня
       *[other] { $days } дней
    }) взят в партиях: { $games }.
reply-leave-proposed = Для партий { $games } он отправлен на другой узел, который ведёт их запись: вам сообщат.
reply-leave-not-in = Не в партии { $game }: { $why }.
reply-refilled = { $days ->
        [one] { $days } день переведён
        [few] { $days } дня переведены
       *[other] { $days } дней переведены
    } из банка на часы.
reply-reflection = Долгое обдумывание объявлено для вашего { $number }-го хода: предел молчания не закончит на нём партию; контроль времени по-прежнему действует.
reply-proposed = Отправлено на узел, который ведёт запись этой партии: вам сообщат, когда оно будет в записи.
reply-in-game = Партия { $game }: { $why }.
reply-no-game-for-leave = У вас нет идущих партий, в которых можно взять отпуск.
reply-not-recorded = Не записано: ничего не изменилось. Попробуйте ещё раз.
reply-shutting-down = Сервер останавливается: попробуйте позже.
reply-too-many = Слишком много команд: не спешите и попробуйте снова через минуту.
reply-confirm-resignation = Отметьте флажок, чтобы подтвердить сдачу.
reply-empty-message = Сообщение пустое: напишите что-нибудь.
reply-bad-number = { $number } — не номер хода.
reply-not-understood = Не понято: { $text }
reply-not-an-action = Эта страница так не умеет.

## Почему партия отказывает.

refused-game-over = партия окончена: { $result }
refused-stopped = партия остановлена до решения арбитра ({ $why })
refused-not-your-turn = сейчас не ваш ход: ходят { $side ->
        [white] белые
       *[black] чёрные
    }
refused-wrong-number = неверный номер хода: написано { $written }, а это ход { $expected }
refused-black-number = неверный номер хода: { $written } написан для чёрных, а это ход белых { $expected }
refused-no-draw-offer = нет предложения ничьей, на которое можно ответить
refused-own-draw-offer = нельзя ответить на собственное предложение ничьей
refused-wrong-repeat = в сообщении повторён ход соперника { $written }, а он был { $actual }
refused-draw-too-early = ничью рано: в этом турнире её не предлагают и не принимают до { $from }-го хода; сейчас ход { $now }
refused-claim = требование ничьей отклонено: { $why }
refused-leave = отпуск не принят: { $why }
refused-refill = пополнение не принято: { $why }
refused-reflection = долгое обдумывание не принято: { $why }
refused-line = условная линия не принята: { $why }
claim-illegal-move = такой ход невозможен
claim-repetition = позиция { $when ->
        [after] после вашего хода
       *[now] сейчас
    } встречалась { $seen ->
        [one] { $seen } раз
        [few] { $seen } раза
       *[other] { $seen } раз
    }; для ничьей нужно 3
claim-no-fifty = правило 50 ходов не для этой игры: её заканчивают собственные пределы
claim-fifty = { $when ->
        [after] после вашего хода
       *[now] сейчас
    } без взятий и ходов пешкой сделано { $moves ->
        [one] { $moves } ход
        [few] { $moves } хода
       *[other] { $moves } ходов
    }; правило требует 50
leave-triple-block = в партии с тройным блоком отпуска нет: пополняйте часы из банка
leave-no-days = отпуск — не меньше одного дня
leave-not-ahead = отпуск объявляют заранее: он может начаться не раньше { $earliest }
leave-overlaps = он пересекается с уже объявленным отпуском с { $first } по { $last }
leave-over-year = в { $year } году просят { $asked } дн. отпуска, уже взято { $taken }, в год можно { $allowed }
refill-no-bank = банк есть только в партии с тройным блоком
refill-not-to-move = часы пополняют, когда ваш ход
refill-no-days = пополнение — не меньше одного дня
refill-out-of-time = время на часах вышло
refill-bank-short = в банке { $bank } дн., а просят { $asked }
refill-clock-full = на часах помещается не больше { $clock } дн.: сейчас войдёт { $room }, а просят { $asked }
reflection-triple-block = в партии с тройным блоком нет предела молчания: предел — её часы, и они идут, что бы ни было объявлено
reflection-no-limit = в этой партии нет предела молчания: объявлять нечего
reflection-already = долгое обдумывание уже объявлено для вашего { $next ->
        [yes] следующего
       *[no] текущего
    } хода
line-your-move = сейчас ваш ход: сделайте его; условные ходы отвечают на следующий ход соперника
line-unpaired = в линии каждому ожидаемому ходу соперника нужен ваш ответ
line-too-long = в линии не больше { $max } ходов
line-over-before = партия окончилась бы до «{ $text }»
line-in-move = ход { $index } ({ $whose ->
        [theirs] соперника
       *[yours] ваш
    }) «{ $text }»: { $why }

## Почему ход не прочитан или невозможен.

move-not-a-move = это не ход: { $why }
syntax-empty = ничего не написано
syntax-too-long = слишком длинно
syntax-null-move = пустой ход — не ход
syntax-numeric = это не числовая запись хода
syntax-piece-letters = нет фигуры, которая пишется «{ $letters }»
syntax-no-destination = нет поля, куда идёт ход
syntax-promotion-piece = после «=» не указана фигура превращения
syntax-unexpected = лишнее «{ $text }»
syntax-bad-square = «{ $text }» — не поле (a1–h8 на тёмном поле или 1–32)
syntax-one-square = в ходе нужно не меньше двух полей
syntax-mixed-separators = в нём смешаны тире и знак взятия
syntax-mixed-forms = в нём смешаны буквенные поля и номера полей
move-no-such-move = здесь нет такого хода
move-nothing-to = здесь нет такого хода: на { $square } не идёт ни один ход
move-legal-to = здесь нет такого хода; на { $square } можно: { $moves }
move-game-over = здесь нет такого хода: партия окончена, ходов нет
move-ambiguous = неоднозначно: это может быть { $readings }
move-promotion-missing = неоднозначно: не указана фигура превращения; напишите один из ходов: { $readings }
move-reading = { $move } (в языках { $langs })
move-or = {" "}или{" "}
move-any-language = любой язык
move-out-of-languages = в языках { $had }, которым соответствуют прежние ходы, такого хода нет; его читают только { $readers }, как { $readings } (ходы одной партии читаются на одном языке)
draughts-no-piece = на { $square } нет { $side ->
        [white] белой
       *[black] чёрной
    } шашки
draughts-must-capture = бить обязательно
draughts-legal-from = ходы с { $square }: { $moves }
draughts-stuck = у шашки на { $square } нет ходов
draughts-legal = возможные ходы: { $moves }
draughts-no-legal-move = здесь нет такого хода: партия окончена, у { $side ->
        [white] белых
       *[black] чёрных
    } нет ходов
draughts-stops-early = взятие продолжается: { $moves }
draughts-ambiguous = неоднозначно: напишите взятие целиком, { $moves }

## Контроль времени.

tc-moves-in-days = { $moves ->
        [one] { $moves } ход
        [few] { $moves } хода
       *[other] { $moves } ходов
    } за { $days ->
        [one] { $days } день
        [few] { $days } дня
       *[other] { $days } дней
    }
tc-days-per-move = { $days ->
        [one] { $days } день
        [few] { $days } дня
       *[other] { $days } дней
    } на ход
tc-fischer = { $base } дн. + { $increment } дн. за ход
tc-fischer-cap = { $base } дн. + { $increment } дн. за ход, не больше { $cap }
tc-triple-block = Тройной блок: часы { $clock } дн. + { $increment } дн. за ход в первых { $moves } ходах, банк { $bank } дн.
tc-refill-by-hand = пополнение вручную
tc-protection = защита { $days } дн.
tc-none = без ограничения времени

## The arbiter's desk

desk = Стол арбитра
desk-players = Игроки
desk-events = Турниры
desk-decisions = Решения
desk-answer = Ответ ретранслятора, как по линии:
desk-search = Найти
desk-id = Код
desk-name = Имя
desk-reach = Связь
desk-notation = Нотация
desk-lang = Язык
desk-email = Адрес почты
desk-in-progress = Партий идёт
desk-last-heard = Последняя весть
desk-no-players = Нет таких игроков.
desk-add-player = Добавить игрока
desk-add-help = Код — имя для входа: буквы, цифры, «-», «_», «.». Игроку, с которым связь по почте, нужен адрес: ему придёт приветствие с секретом.
desk-add = Добавить
desk-change = Изменить
desk-unchanged = (как есть)
desk-new-secret = Новый секрет
desk-new-secret-help = Старый секрет сразу перестанет действовать, сеансы игрока закроются.
desk-secret-once = Этот секрет показан один раз и нигде не хранится в читаемом виде: передайте его игроку, распечатайте лист ниже или запишите сейчас.
desk-sheet = Ваш доступ к ретранслятору заочных партий
desk-sheet-how = Входите на странице «Мои партии» (/play) с этим кодом и секретом или командой LOGIN по линии. Никому не сообщайте секрет.
desk-print = Напечатайте эту страницу: печатается только лист.
desk-back = Назад к столу
desk-new-event = Создать турнир
desk-event-id-help = Короткий код для команд и адресов (буквы, цифры, «-»).
desk-system = Система
desk-system-help = Круговой: каждый с каждым один раз; двухкруговой: дважды, каждым цветом; матч: две команды, доска против доски.
desk-round-robin = круговой
desk-double-round-robin = двухкруговой
desk-match = матч
desk-event-name-help = Название турнира на страницах, в экспорте и в письмах.
desk-site = Место
desk-site-help = Место проведения (Site в PGN); необязательно.
desk-tc-help = Как в конфигурации: 10/50 (10 ходов за 50 дней), 3d (дней на ход), fischer 30d+1d. Пусто: без ограничения.
desk-game-kind = Игра
desk-game-help = chess (шахматы) или draughts-ru (русские шашки).
desk-view = Просмотр
desk-view-help = Кто видит партии: public (все, сразу), delay (зрители с опозданием на несколько полуходов), finished (только законченные), private (игроки и арбитр).
desk-delay = Задержка (полуходов)
desk-delay-help = При delay: на сколько полуходов отстают зрители.
desk-on-timeout = Когда время вышло
desk-on-timeout-help = forfeit: партия сразу проиграна; arbiter: она ждёт вашего решения здесь.
desk-silence = Предел молчания (дней)
desk-silence-help = Дней без хода, после которых очередной игрок проигрывает или, при «arbiter», ждёт вашего решения. Пусто: нет.
desk-reminders = Напоминания (дни)
desk-reminders-help = Дни молчания, после которых очередному игроку напоминают, напр. 10,20.
desk-leave-days = Отпуск (дней в год)
desk-leave-help = Сколько дней отпуска игрок может взять за год.
desk-make = Создать турнир
desk-event-text = Турнир, как отвечает EVENT SHOW
desk-event-list = Турниры, как отвечает EVENTS
desk-enter = Записать игроков
desk-enter-help = Отметьте игроков; номера — по порядку списка или по жребию.
desk-draw-lots = Жеребьёвка
desk-start = Начать турнир
desk-start-help = Старт создаёт все партии по таблице; запись закрывается.
desk-withdraw = Снять игрока
desk-reason = Причина
desk-withdraw-effect = Снятие засчитывает игроку поражение во всех незаконченных партиях. Таблица сейчас и после:
desk-now = Сейчас
desk-after = После
desk-confirm = Подтвердить
desk-time-left = Время (белые / чёрные)
desk-silence-days = Дней на ходу
desk-leave = В отпуске
desk-no-decisions = Решения арбитра не ждёт ничего.
desk-why-time = Время на часах вышло
desk-why-silence = Молчание сверх предела
desk-why-stopped = Остановлена: запись этой партии на другом узле здесь не применяется
desk-needs = Почему
desk-adjudicate = Присудить
desk-adjudicate-help = Результат и причина попадут в запись и к обоим игрокам.
desk-download-crosstable = Скачать таблицу (CSV)
desk-forged = Эта форма пришла не со страницы стола, или сеанс закончился: ничего не сделано.
desk-refused = Отказано
desk-record = Запись
desk-verdict = Проверка записи (journal verify)
desk-verify-failed = Запись не проходит проверку:
desk-head = Голова цепочки
desk-signed-head = Последняя подписанная голова
desk-no-signed-head = пока нет
desk-exports = Экспорт
desk-export-game = Партия
desk-export-event = Турнир
desk-download = Скачать
desk-format-iccf = бланк ICCF
desk-event-record = запись турнира (текст)
desk-export-ratings = Действующий рейтинг-лист
desk-format-text = Текст
desk-day-log = Что арбитр сделал за день
desk-day = День
desk-nothing-that-day = В этот день записей арбитра нет.
desk-entry = Запись №
desk-time = Время
desk-channel = Канал
desk-kind = Вид
desk-command = Команда
desk-correct = Исправить результат сыгранной партии
desk-correct-help = Для результата, решённого ошибочно (поражение по времени из-за сбоя, удовлетворённая апелляция). Новый результат и его причина попадут в запись после прежнего и к обоим игрокам; таблицы, выгрузки и рейтинги учитывают последнее решение.
desk-correct-button = Исправить
desk-game = Партия
desk-special-leave = Особый отпуск
desk-special-leave-help = Предоставляется арбитром (болезнь, работа): часы игрока останавливаются во всех его текущих партиях здесь, а дни не засчитываются в его годовой отпуск. Начинается не раньше завтрашнего дня и не может пересекаться с уже взятым отпуском. Причина попадает в запись; оба игрока получают уведомление.
desk-player = Игрок
desk-first-day = Первый день
desk-days = Дней
desk-grant = Предоставить
web-ratings = Рейтинг
web-ratings-effective = Рейтинг-лист на { $date }
web-ratings-none = Рейтинговых партий пока нет.
web-ratings-player = Игрок
web-ratings-rating = Рейтинг
web-ratings-deviation = Отклонение
web-ratings-games = Партии
web-ratings-change = Изменение
web-ratings-history = История
web-ratings-new = новый
web-ratings-provisional = ? предварительный: отклонение { $rd } и больше
web-bracket = Сетка
web-bracket-final = Финал
web-bracket-semi-finals = Полуфинал
web-bracket-quarter-finals = Четвертьфинал
web-bracket-round = Тур { $round }
web-bracket-bye = без соперника
web-bracket-winner = Победитель
web-bracket-by-lot = по жребию
web-bracket-extra-games = после дополнительных партий
web-bracket-withdrawal = выбытие соперника
desk-knockout = на выбывание (кубок)
