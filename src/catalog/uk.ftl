### Слова ccrelay українською. Ключі ті самі, що в en.ftl (це перевіряє тест).
### Числа обирають форму самі: [one] 1, 21 ...; [few] 2-4, 22-24 ...; [other] 5-20, 0 ...

## Тема листа: що сталося, без номера партії (він у темі першим).

summary-game-started = партія почалася: ви граєте { $side ->
        [white] білими
       *[black] чорними
    } проти { $opponent }

summary-move = хід { $move }, { $mover }{ $offer ->
        [yes] , запропоновано нічию
       *[no] {""}
    }{ $cancels ->
        [yes] ; вашу умовну лінію скасовано
       *[no] {""}
    }

summary-line-played = з вашої умовної лінії зіграно { $move }; { $left ->
        [one] залишилася { $left } пара
        [few] залишилося { $left } пари
       *[other] залишилося { $left } пар
    }

summary-draw = { $by } { $act ->
        [offered] пропонує
        [accepted] приймає
       *[declined] відхиляє
    } нічию

summary-resigned = { $by } здається

summary-claim = { $by } вимагає нічию ({ $claim ->
        [fifty] правило 50 ходів
       *[threefold] триразове повторення
    })

summary-claim-with = { $by } вимагає нічию ({ $claim ->
        [fifty] правило 50 ходів
       *[threefold] триразове повторення
    }) ходом { $move }

summary-leave = { $by } у відпустці з { $first } по { $last } ({ $days ->
        [one] { $days } день
        [few] { $days } дні
       *[other] { $days } днів
    }), його годинник стоїть

summary-time-up = { $player }: { $overdue ->
        [silence] перевищено строк мовчання
       *[time-control] час вичерпано
    }, { $forfeit ->
        [yes] поразка
       *[no] вирішує суддя
    }

summary-reminder = ваш хід чекає вже { $days ->
        [one] { $days } день
        [few] { $days } дні
       *[other] { $days } днів
    }

summary-result = партію закінчено: { $pgn }

summary-refused = інший вузол відхилив вашу дію { $number }: { $reason }

summary-message = повідомлення від { $from }: { $text }

summary-recorded = записано в партію: { $what }

summary-recorded-move = ваш хід { $move } записано в партію

summary-refill = { $by } ({ $side ->
        [white] білі
       *[black] чорні
    }): з банку на годинник { $days ->
        [one] переведено { $days } день
        [few] переведено { $days } дні
       *[other] переведено { $days } днів
    }

summary-long-reflection = { $by } ({ $side ->
        [white] білі
       *[black] чорні
    }) заявляє довге обдумування ходу { $number }: строк мовчання не завершить на ньому партію

summary-welcome = { $name }: вас зареєстровано; ходи вам пишуться в записі { $notation }

summary-event-started = турнір { $name } почався: у вас { $count ->
        [one] { $count } партія
        [few] { $count } партії
       *[other] { $count } партій
    }

summary-withdrawn = { $player } вибув ({ $reason }): його незакінчені партії зараховано як поразки

summary-remote = віддалений сервер { $remote } ({ $player }): { $health ->
        [failing] не відповідає вже годину; запропоновані ходи чекають і будуть надіслані, коли сервер відповість
        [working] знову відповідає; ходи, що чекали, надсилаються
       *[paused] відхилив ім'я або пароль облікового запису; його призупинено до зміни налаштувань
    }

summary-event-game = { $game } ({ $side ->
        [white] білими
       *[black] чорними
    } проти { $opponent })

## Під рядком листа.

mail-welcome =
    Ваш ключ: { $secret }
    Зберігайте його в таємниці: він доводить, що лист від вас.

    Щоб зробити хід, напишіть на { $relay }: у темі — номер партії і key:{ $secret },
    у тексті — хід окремим рядком у будь-якому записі (12. Кf3, 7163, g1-f3).
    Або дайте відповідь на останній лист про партію.

mail-event-game = тур { $round }, дошка { $board }: партія { $game }, ви граєте { $side ->
        [white] білими
       *[black] чорними
    } проти { $opponent }

mail-footer =
    Щоб відповісти, напишіть хід окремим рядком ("12. Кf3", "12. 7163"), можна з повтором:
    "повторення: <їхній останній хід>"; або "пропоную нічию", "приймаю нічию", "відхиляю нічию",
    "здаюся". Номер партії залиште першим у темі, разом із ключем (key:ВАШ-КЛЮЧ).

mail-you-said = Ваш лист:

mail-truncated = (Лист довший, ніж читає сервер; прочитано лише його початок.)

## Лист, коли хід за читачем (NOTIFY), сторінка налаштувань і відписка.

notify-subject = Ваш хід у партії { $game } ({ $white } – { $black })
notify-moved = { $opponent } зіграв { $move } у партії { $game }: ваш хід.
notify-started = Партія { $game } проти { $opponent } почалася: ви граєте білими, ваш хід.
notify-open = Відкрити партію: { $link }
notify-board = Позиція в партії { $game }
notify-why = Ви просили надсилати ці листи. Змінити чи вимкнути: { $settings }
notify-stop = Більше не надсилати
notify-digest-subject = { $count ->
        [one] { $count } партія чекає
        [few] { $count } партії чекають
       *[other] { $count } партій чекають
    } на ваш хід
notify-digest-game = { $game } ({ $white } – { $black }): { $move }
notify-digest-start = { $game } ({ $white } – { $black }): партія почалася
notify-page-title = Лист, коли ваш хід
notify-page-link = Лист, коли мій хід
play-radio-next-code = Ви граєте повідомленнями APRS з позивного { $callsign }. Наступний код вашої картки: номер { $number } (приймається будь-який із десяти перших невикористаних).
play-radio-card-used = Ви граєте повідомленнями APRS з позивного { $callsign }. Картку вичерпано: попросіть у судді нову.
notify-page-intro = Сервер може надсилати вам лист, коли хід за вами: після кожного ходу суперника або раз на день з усіма партіями, де чекають на ваш хід. У листі — позиція й посилання на партію; одне посилання в ньому вимикає листи.
notify-page-address = Ваша адреса пошти
notify-page-off = Не надсилати
notify-page-each = Лист після кожного ходу суперника
notify-page-digest = Один лист на день, о цій годині
notify-page-hour = Година (0–23)
notify-page-zone = Часовий пояс (наприклад, Europe/Kyiv; порожньо — UTC)
notify-page-save = Зберегти
notify-page-saved = Збережено.
notify-page-unavailable = Цей сервер не надсилає таких листів: суддя їх не налаштував.
notify-page-by-mail = Ви граєте поштою: кожен хід суперника й так приходить вам листом.
unsubscribe-title = Вимкнути листи про ваш хід
unsubscribe-ask = Більше не надсилати гравцеві { $player } листи про його хід?
unsubscribe-button = Більше не надсилати
unsubscribe-done = Готово: таких листів більше не буде. Увімкнути їх знову можна на сторінці налаштувань.
unsubscribe-refused = Це посилання недійсне: нічого не змінено.

## Годинник, як його пишуть листи й веб-сторінки.

clock-time = { $sign }{ $days } дн. { $hours } год

clock-days = { $days } дн.

clock-side = { $side ->
        [white] Білі
       *[black] Чорні
    }: { $kind ->
        [waiting] чекають ходу суперника
        [per-move] { $used } на цей хід{ $charged }, залишилося { $left }
        [fischer] { $used } використано{ $charged }, залишилося { $left }
        [block] на годиннику { $left }, у банку { $bank }
       *[moves] { $used } використано{ $charged }, залишилося { $left } до { $until }-го ходу
    }{ $state ->
        [running] {" "}(годинник іде)
        [leave] {" "}(у відпустці)
       *[none] {""}
    }

clock-charged = , зараховано { $charged }

clock-line = годинник: { $white } | { $black }

clock-doubling = { $side ->
        [white] Білі
       *[black] Чорні
    }: { $day }-й день на цьому ході, тепер кожен день рахується подвійно

## Вебсторінки.

web-title = ccrelay: партії за листуванням
web-games = Партії
web-events = Турніри
web-event = Турнір
web-game = Партія
web-white = Білі
web-black = Чорні
web-moves = Ходи
web-to-move = Хід
web-result = Результат
web-last-move = Останній хід
web-in-progress = триває
web-awaiting-arbiter = чекає рішення арбітра
web-no-games = Немає партій для показу.
web-page = Сторінка
web-of = з
web-previous = попередня
web-next = наступна
web-time-control = Контроль часу
web-clock = Залишилося часу
web-no-limit = без обмеження
web-on-leave = у відпустці
web-draw-offer = Нічию запропонували
web-chain-head = Вершина ланцюжка журналу
web-download-pgn = Завантажити PGN
web-notation = Нотація
web-language = Мова
web-show = Показати
web-position-after = Позиція після
web-start-position = початок
web-latest = остання
web-delayed = Ходи показуються із затримкою: останні приховано, поки партія триває.
web-finished-only = Партії цього турніру показуються після закінчення.
web-crosstable = Турнірна таблиця
web-place = Місце
web-player = Учасник
web-points = Очки
web-played = Партій
web-sb = Коеф. Бергера
web-wins = Перемог
web-pairings = Пари за турами
web-round = Тур
web-site = Місце проведення
web-started = Розпочато
web-not-found = Не знайдено
web-not-found-text = Тут немає такої сторінки, партії чи турніру.
web-bad-request = Хибний запит
web-home = Усі партії
web-arbiter = Арбітр
web-login = Увійти
web-logout = Вийти
web-secret = Секрет адміністратора
web-login-failed = Вхід відхилено.
web-logged-in = Ви увійшли як арбітр: усі партії показано повністю.
web-live = наживо
web-board-of = Дошка
web-over-by = —
web-unavailable = Сервер зараз не може відповісти; спробуйте трохи згодом.

## Як закінчилася партія.

end-checkmate = мат
end-stalemate = пат
end-insufficient-material = недостатньо матеріалу
end-resignation = здача
end-agreement = нічия за згодою
end-repetition = триразове повторення
end-fifty-moves = правило 50 ходів
end-time-forfeit = прострочення часу
end-silence = мовчання понад строк
end-adjudication = рішення арбітра
end-no-moves = немає ходів
end-draw-rule = нічия за правилами
end-withdrawal = вибуття з турніру

## A player's own pages (/play)
play-title = Мої партії
play-login-title = Вхід гравця
play-id = Ім'я гравця (id)
play-secret = Секрет
play-logged-in-as = Ви увійшли як
play-your-move = Ваш хід
play-their-move = Хід суперника
play-opponent = Суперник
play-you-play = Ви граєте
play-no-games = У вас поки немає партій.
play-move = Ваш хід
play-move-help = Перетягніть фігуру, виберіть два поля з клавіатури (стрілки, Enter) або напишіть хід у будь-якій нотації: Кf3, Nf3, g1-f3, 7163.
play-check = Перевірити
play-send = Надіслати хід
play-read-as = Прочитано як
play-with-draw-offer = з пропозицією нічиєї
play-offer-draw = Запропонувати нічию
play-accept-draw = Прийняти нічию
play-decline-draw = Відхилити нічию
play-draw-offered-to-you = Суперник пропонує нічию.
play-draw-offered-by-you = Ваша пропозиція нічиєї чинна.
play-resign = Здатися
play-resign-sure = Так, я здаю цю партію
play-claim = Вимагати нічию
play-claim-threefold = триразове повторення
play-claim-fifty = правило 50 ходів
play-claim-with = з ходом (необов'язково)
play-messages = Повідомлення
play-no-messages = У цій партії повідомлень немає.
play-send-message = Надіслати повідомлення
play-conditional = Умовна лінія
play-conditional-help = Хід суперника, ваша відповідь і так далі, у вашій нотації: 12... Кf6 13. Сg5
play-set-line = Задати лінію
play-cancel-line = Скасувати лінію
play-leave = Відпустка
play-leave-first = Перший день
play-leave-days = Днів
play-take-leave = Взяти відпустку в усіх моїх партіях
play-receipt = Квитанція
play-download-receipt = підписана квитанція
play-done = Зроблено
play-refused = Відхилено
play-forged = Ця форма застаріла або надійшла не з цього сайту: нічого не зроблено. Оновіть сторінку й спробуйте знову.
play-you = Ви
play-actions = У цій партії
play-login-needed = Увійдіть, щоб грати свої партії.
play-bank = Банк часу
play-bank-days = Днів із банку на годинник
play-refill = Поповнити годинник
play-silence = Оголосити довге обмірковування
play-silence-help = Межа мовчання не завершить партію на вашому поточному або наступному ході; контроль часу й далі діє.
play-bank-left = банк { $bank }

## Відповіді сервера на сторінках гравця.

reply-moved = Хід { $move } прийнято{ $offer ->
        [yes] , з пропозицією нічиєї
       *[no] {""}
    }.
reply-draw-offered = Ви запропонували нічию.
reply-draw-accepted = Ви прийняли нічию: партія завершилася внічию.
reply-draw-declined = Ви відхилили пропозицію нічиєї.
reply-resigned = Ви здали партію.
reply-claimed = Нічию за { $claim ->
        [fifty] правилом 50 ходів
       *[threefold] триразовим повторенням
    } зараховано.
reply-line-set = Умовну лінію задано: { $line }.
reply-line-pair = якщо { $expected }, то { $answer }
reply-line-cancelled = Умовну лінію скасовано.
reply-message-sent = Повідомлення надіслано.
reply-mended = Його виправлено для читача: переноси рядків показано як « / », символи, що ховають або переставляють текст, прибрано, довжина не більша за 500 знаків.
reply-message-empty = Повідомлення не надіслано: у ньому не залишилося тексту, який можна прочитати.
reply-message-not-sent = Повідомлення не надіслано.
reply-leave-taken = Відпустку з { $first } по { $last } ({ $days ->
        [one] { $days } день
        [few] { $days } дні
       *[other] { $days } днів
    }) взято в партіях: { $games }.
reply-leave-proposed = Для партій { $games } її надіслано на інший вузол, який веде їхній запис: вам повідомлять.
reply-leave-not-in = Не в партії { $game }: { $why }.
reply-refilled = { $days ->
        [one] { $days } день переведено
        [few] { $days } дні переведено
       *[other] { $days } днів переведено
    } з банку на годинник.
reply-reflection = Довге обмірковування оголошено для вашого { $number }-го ходу: межа мовчання не завершить на ньому партію; контроль часу й далі діє.
reply-proposed = Надіслано на вузол, який веде запис цієї партії: вам повідомлять, коли воно буде в записі.
reply-in-game = Партія { $game }: { $why }.
reply-no-game-for-leave = У вас немає поточних партій, у яких можна взяти відпустку.
reply-not-recorded = Не записано: нічого не змінилося. Спробуйте ще раз.
reply-shutting-down = Сервер зупиняється: спробуйте пізніше.
reply-too-many = Забагато команд: не поспішайте й спробуйте знову за хвилину.
reply-confirm-resignation = Позначте прапорець, щоб підтвердити здачу.
reply-empty-message = Повідомлення порожнє: напишіть щось.
reply-bad-number = { $number } — не номер ходу.
reply-not-understood = Не зрозуміло: { $text }
reply-not-an-action = Ця сторінка так не вміє.

## Чому партія відмовляє.

refused-game-over = партію завершено: { $result }
refused-stopped = партію зупинено до рішення арбітра ({ $why })
refused-not-your-turn = зараз не ваш хід: ходять { $side ->
        [white] білі
       *[black] чорні
    }
refused-wrong-number = неправильний номер ходу: написано { $written }, а це хід { $expected }
refused-black-number = неправильний номер ходу: { $written } написано для чорних, а це хід білих { $expected }
refused-no-draw-offer = немає пропозиції нічиєї, на яку можна відповісти
refused-own-draw-offer = не можна відповісти на власну пропозицію нічиєї
refused-wrong-repeat = у повідомленні повторено хід суперника { $written }, а він був { $actual }
refused-draw-too-early = нічию зарано: у цьому турнірі її не пропонують і не приймають до { $from }-го ходу; зараз хід { $now }
refused-claim = вимогу нічиєї відхилено: { $why }
refused-leave = відпустку не прийнято: { $why }
refused-refill = поповнення не прийнято: { $why }
refused-reflection = довге обмірковування не прийнято: { $why }
refused-line = умовну лінію не прийнято: { $why }
claim-illegal-move = такий хід неможливий
claim-repetition = позиція { $when ->
        [after] після вашого ходу
       *[now] зараз
    } траплялася { $seen ->
        [one] { $seen } раз
        [few] { $seen } рази
       *[other] { $seen } разів
    }; для нічиєї потрібно 3
claim-no-fifty = правило 50 ходів не для цієї гри: її завершують власні межі
claim-fifty = { $when ->
        [after] після вашого ходу
       *[now] зараз
    } без взяттів і ходів пішаком зроблено { $moves ->
        [one] { $moves } хід
        [few] { $moves } ходи
       *[other] { $moves } ходів
    }; правило вимагає 50
leave-triple-block = у партії з потрійним блоком відпустки немає: поповнюйте годинник із банку
leave-no-days = відпустка — щонайменше один день
leave-not-ahead = відпустку оголошують заздалегідь: вона може початися не раніше { $earliest }
leave-overlaps = вона перетинається з уже оголошеною відпусткою з { $first } по { $last }
leave-over-year = у { $year } році просять { $asked } дн. відпустки, уже взято { $taken }, на рік можна { $allowed }
refill-no-bank = банк є лише в партії з потрійним блоком
refill-not-to-move = годинник поповнюють, коли ваш хід
refill-no-days = поповнення — щонайменше один день
refill-out-of-time = час на годиннику вийшов
refill-bank-short = у банку { $bank } дн., а просять { $asked }
refill-clock-full = на годиннику вміщується не більше { $clock } дн.: зараз увійде { $room }, а просять { $asked }
reflection-triple-block = у партії з потрійним блоком немає межі мовчання: межа — її годинник, і він іде, хоч би що було оголошено
reflection-no-limit = у цій партії немає межі мовчання: оголошувати нічого
reflection-already = довге обмірковування вже оголошено для вашого { $next ->
        [yes] наступного
       *[no] поточного
    } ходу
line-your-move = зараз ваш хід: зробіть його; умовні ходи відповідають на наступний хід суперника
line-unpaired = у лінії кожному очікуваному ходу суперника потрібна ваша відповідь
line-too-long = у лінії не більше { $max } ходів
line-over-before = партія завершилася б до «{ $text }»
line-in-move = хід { $index } ({ $whose ->
        [theirs] суперника
       *[yours] ваш
    }) «{ $text }»: { $why }

## Чому хід не прочитано або він неможливий.

move-not-a-move = це не хід: { $why }
syntax-empty = нічого не написано
syntax-too-long = задовго
syntax-null-move = порожній хід — не хід
syntax-numeric = це не числовий запис ходу
syntax-piece-letters = немає фігури, що пишеться «{ $letters }»
syntax-no-destination = немає поля, куди йде хід
syntax-promotion-piece = після «=» не вказано фігуру перетворення
syntax-unexpected = зайве «{ $text }»
syntax-bad-square = «{ $text }» — не поле (a1–h8 на темному полі або 1–32)
syntax-one-square = у ході потрібно щонайменше два поля
syntax-mixed-separators = у ньому змішано тире і знак взяття
syntax-mixed-forms = у ньому змішано буквені поля й номери полів
move-no-such-move = тут немає такого ходу
move-nothing-to = тут немає такого ходу: на { $square } не йде жоден хід
move-legal-to = тут немає такого ходу; на { $square } можна: { $moves }
move-game-over = тут немає такого ходу: партію завершено, ходів немає
move-ambiguous = неоднозначно: це може бути { $readings }
move-promotion-missing = неоднозначно: не вказано фігуру перетворення; напишіть один із ходів: { $readings }
move-reading = { $move } (у мовах { $langs })
move-or = {" "}або{" "}
move-any-language = будь-яка мова
move-out-of-languages = у мовах { $had }, яким відповідають попередні ходи, такого ходу немає; його читають лише { $readers }, як { $readings } (ходи однієї партії читаються однією мовою)
draughts-no-piece = на { $square } немає { $side ->
        [white] білої
       *[black] чорної
    } шашки
draughts-must-capture = бити обов'язково
draughts-legal-from = ходи з { $square }: { $moves }
draughts-stuck = у шашки на { $square } немає ходів
draughts-legal = можливі ходи: { $moves }
draughts-no-legal-move = тут немає такого ходу: партію завершено, у { $side ->
        [white] білих
       *[black] чорних
    } немає ходів
draughts-stops-early = взяття продовжується: { $moves }
draughts-ambiguous = неоднозначно: напишіть взяття повністю, { $moves }

## Контроль часу.

tc-moves-in-days = { $moves ->
        [one] { $moves } хід
        [few] { $moves } ходи
       *[other] { $moves } ходів
    } за { $days ->
        [one] { $days } день
        [few] { $days } дні
       *[other] { $days } днів
    }
tc-days-per-move = { $days ->
        [one] { $days } день
        [few] { $days } дні
       *[other] { $days } днів
    } на хід
tc-fischer = { $base } дн. + { $increment } дн. за хід
tc-fischer-cap = { $base } дн. + { $increment } дн. за хід, не більше { $cap }
tc-triple-block = Потрійний блок: годинник { $clock } дн. + { $increment } дн. за хід у перших { $moves } ходах, банк { $bank } дн.
tc-refill-by-hand = поповнення вручну
tc-protection = захист { $days } дн.
tc-none = без обмеження часу

## The arbiter's desk

desk = Стіл арбітра
desk-players = Гравці
desk-events = Турніри
desk-decisions = Рішення
desk-answer = Відповідь ретранслятора, як по лінії:
desk-search = Шукати
desk-id = Код
desk-name = Ім'я
desk-reach = Зв'язок
desk-notation = Нотація
desk-lang = Мова
desk-email = Адреса пошти
desk-in-progress = Партій триває
desk-last-heard = Остання звістка
desk-no-players = Немає таких гравців.
desk-add-player = Додати гравця
desk-add-help = Код — ім'я для входу: літери, цифри, «-», «_», «.». Гравцеві, з яким зв'язок поштою, потрібна адреса: йому надійде привітання з секретом.
desk-add = Додати
desk-change = Змінити
desk-unchanged = (як є)
desk-new-secret = Новий секрет
desk-new-secret-help = Старий секрет одразу перестане діяти, сеанси гравця закриються.
desk-secret-once = Цей секрет показано один раз, і ніде він не зберігається в читабельному вигляді: передайте його гравцеві, надрукуйте аркуш нижче або запишіть зараз.
desk-sheet = Ваш доступ до ретранслятора партій за листуванням
desk-sheet-how = Входьте на сторінці «Мої партії» (/play) з цим кодом і секретом або командою LOGIN по лінії. Нікому не повідомляйте секрет.
desk-print = Надрукуйте цю сторінку: друкується лише аркуш.
desk-back = Назад до столу
desk-new-event = Створити турнір
desk-event-id-help = Короткий код для команд і адрес (літери, цифри, «-»).
desk-system = Система
desk-system-help = Коловий: кожен з кожним один раз; двоколовий: двічі, кожним кольором; матч: дві команди, дошка проти дошки.
desk-round-robin = коловий
desk-double-round-robin = двоколовий
desk-match = матч
desk-event-name-help = Назва турніру на сторінках, в експорті й у листах.
desk-site = Місце
desk-site-help = Місце проведення (Site у PGN); необов'язково.
desk-tc-help = Як у конфігурації: 10/50 (10 ходів за 50 днів), 3d (днів на хід), fischer 30d+1d. Порожньо: без обмеження.
desk-game-kind = Гра
desk-game-help = chess (шахи) або draughts-ru (російські шашки).
desk-view = Перегляд
desk-view-help = Хто бачить партії: public (усі, одразу), delay (глядачі із запізненням на кілька півходів), finished (лише завершені), private (гравці й арбітр).
desk-delay = Затримка (півходів)
desk-delay-help = При delay: на скільки півходів відстають глядачі.
desk-on-timeout = Коли час вичерпано
desk-on-timeout-help = forfeit: партію одразу програно; arbiter: вона чекає вашого рішення тут.
desk-silence = Межа мовчання (днів)
desk-silence-help = Днів без ходу, після яких черговий гравець програє або, при «arbiter», чекає вашого рішення. Порожньо: немає.
desk-reminders = Нагадування (дні)
desk-reminders-help = Дні мовчання, після яких черговому гравцеві нагадують, напр. 10,20.
desk-leave-days = Відпустка (днів на рік)
desk-leave-help = Скільки днів відпустки гравець може взяти за рік.
desk-make = Створити турнір
desk-event-text = Турнір, як відповідає EVENT SHOW
desk-event-list = Турніри, як відповідає EVENTS
desk-enter = Записати гравців
desk-enter-help = Позначте гравців; номери — за порядком списку або за жеребом.
desk-draw-lots = Жеребкування
desk-start = Почати турнір
desk-start-help = Старт створює всі партії за таблицею; запис закривається.
desk-withdraw = Зняти гравця
desk-reason = Причина
desk-withdraw-effect = Зняття зараховує гравцеві поразку в усіх незавершених партіях. Таблиця зараз і після:
desk-now = Зараз
desk-after = Після
desk-confirm = Підтвердити
desk-time-left = Час (білі / чорні)
desk-silence-days = Днів на ході
desk-leave = У відпустці
desk-no-decisions = Рішення арбітра не чекає нічого.
desk-why-time = Час на годиннику вичерпано
desk-why-silence = Мовчання понад межу
desk-why-stopped = Зупинено: запис цієї партії на іншому вузлі тут не застосовується
desk-needs = Чому
desk-adjudicate = Присудити
desk-adjudicate-help = Результат і причина потраплять до запису й до обох гравців.
desk-download-crosstable = Завантажити таблицю (CSV)
desk-forged = Ця форма прийшла не зі сторінки столу, або сеанс закінчився: нічого не зроблено.
desk-refused = Відмовлено
desk-record = Запис
desk-verdict = Перевірка запису (journal verify)
desk-verify-failed = Запис не проходить перевірку:
desk-head = Голова ланцюжка
desk-signed-head = Остання підписана голова
desk-no-signed-head = поки немає
desk-exports = Експорт
desk-export-game = Партія
desk-export-event = Турнір
desk-download = Завантажити
desk-format-iccf = бланк ICCF
desk-event-record = запис турніру (текст)
desk-export-ratings = Чинний рейтинг-лист
desk-format-text = Текст
desk-day-log = Що арбітр зробив за день
desk-day = День
desk-nothing-that-day = Цього дня записів арбітра немає.
desk-entry = Запис №
desk-time = Час
desk-channel = Канал
desk-kind = Вид
desk-command = Команда
desk-correct = Виправити результат зіграної партії
desk-correct-help = Для результату, вирішеного помилково (поразка за часом через збій, задоволена апеляція). Новий результат і його причина потраплять до запису після попереднього й до обох гравців; таблиці, вивантаження й рейтинги враховують останнє рішення.
desk-correct-button = Виправити
desk-game = Партія
desk-special-leave = Особлива відпустка
desk-special-leave-help = Надається арбітром (хвороба, робота): годинники гравця зупиняються в усіх його поточних партіях тут, а дні не зараховуються до його річної відпустки. Починається не раніше завтрашнього дня й не може перетинатися з уже взятою відпусткою. Причина потрапляє до запису; обидва гравці отримують повідомлення.
desk-player = Гравець
desk-first-day = Перший день
desk-days = Днів
desk-grant = Надати
web-ratings = Рейтинг
web-ratings-effective = Рейтинг-лист на { $date }
web-ratings-none = Рейтингових партій поки немає.
web-ratings-player = Гравець
web-ratings-rating = Рейтинг
web-ratings-deviation = Відхилення
web-ratings-games = Партії
web-ratings-change = Зміна
web-ratings-history = Історія
web-ratings-new = новий
web-ratings-provisional = ? попередній: відхилення { $rd } і більше
web-bracket = Сітка
web-bracket-final = Фінал
web-bracket-semi-finals = Півфінал
web-bracket-quarter-finals = Чвертьфінал
web-bracket-round = Тур { $round }
web-bracket-bye = без суперника
web-bracket-winner = Переможець
web-bracket-by-lot = за жеребом
web-bracket-extra-games = після додаткових партій
web-bracket-withdrawal = вибуття суперника
desk-knockout = на вибування (кубок)
