/* forum_lang.c - interface words, filler words and date formats of the
 * synthetic forums (see forum_lang.h). */
#include "testkit/forum_lang.h"

#include "testkit/text.h"

#include <time.h>

/* NOTE: keep in the order of enum fr_tk_forum_lang. */
static const struct fr_tk_forum_ui LANGS[FR_TK_FORUM_N_LANGS] = {
    {"en",
     "Board index",
     "Forum",
     "Topics",
     "Posts",
     "Replies",
     "Views",
     "Last post",
     "by",
     "Started by",
     "Posted on",
     "Page",
     "of",
     "Next",
     "Previous",
     "Joined",
     "Members",
     "FAQ",
     "Search",
     "Log in",
     "Register",
     "All times are UTC",
     "It is currently",
     "Sticky",
     "wrote",
     "Profile",
     "Username",
     "Password",
     "No posts",
     "How do I register?",
     "Click Register at the top of any page and fill in the form.",
     "Forum rules - please read before posting",
     "Welcome! Introduce yourself here",
     "Announcements and news"},
    {"de",
     "Foren-Übersicht",
     "Forum",
     "Themen",
     "Beiträge",
     "Antworten",
     "Zugriffe",
     "Letzter Beitrag",
     "von",
     "Erstellt von",
     "Verfasst am",
     "Seite",
     "von",
     "Weiter",
     "Zurück",
     "Registriert",
     "Mitglieder",
     "FAQ",
     "Suche",
     "Anmelden",
     "Registrieren",
     "Alle Zeiten sind UTC",
     "Aktuelle Zeit",
     "Wichtig",
     "schrieb",
     "Profil",
     "Benutzername",
     "Passwort",
     "Keine Beiträge",
     "Wie registriere ich mich?",
     "Klicke oben auf Registrieren und fülle das Formular aus.",
     "Forenregeln - bitte vor dem Schreiben lesen",
     "Willkommen! Stell dich hier vor",
     "Ankündigungen und Neuigkeiten"},
    {"fr",
     "Index du forum",
     "Forum",
     "Sujets",
     "Messages",
     "Réponses",
     "Vues",
     "Dernier message",
     "par",
     "Lancé par",
     "Posté le",
     "Page",
     "sur",
     "Suivant",
     "Précédent",
     "Inscription",
     "Membres",
     "FAQ",
     "Rechercher",
     "Connexion",
     "S’enregistrer",
     "Toutes les heures sont au format UTC",
     "Nous sommes le",
     "Post-it",
     "a écrit",
     "Profil",
     "Nom d’utilisateur",
     "Mot de passe",
     "Aucun message",
     "Comment m’inscrire ?",
     "Cliquez sur S’enregistrer en haut de la page.",
     "Règles du forum - à lire avant de poster",
     "Bienvenue ! Présentez-vous ici",
     "Annonces et nouvelles"},
    {"ru",
     "Список форумов",
     "Форум",
     "Темы",
     "Сообщения",
     "Ответы",
     "Просмотры",
     "Последнее сообщение",
     "автор",
     "Автор темы",
     "Добавлено",
     "Страница",
     "из",
     "След.",
     "Пред.",
     "Зарегистрирован",
     "Пользователи",
     "FAQ",
     "Поиск",
     "Вход",
     "Регистрация",
     "Часовой пояс: UTC",
     "Текущее время",
     "Прилеплено",
     "писал(а)",
     "Профиль",
     "Имя пользователя",
     "Пароль",
     "Нет сообщений",
     "Как зарегистрироваться?",
     "Нажмите «Регистрация» вверху страницы и заполните форму.",
     "Правила форума - прочтите перед публикацией",
     "Добро пожаловать! Представьтесь здесь",
     "Объявления и новости"},
    {"es",
     "Índice general",
     "Foro",
     "Temas",
     "Mensajes",
     "Respuestas",
     "Vistas",
     "Último mensaje",
     "por",
     "Iniciado por",
     "Publicado el",
     "Página",
     "de",
     "Siguiente",
     "Anterior",
     "Registrado",
     "Miembros",
     "FAQ",
     "Buscar",
     "Identificarse",
     "Registrarse",
     "Todos los horarios son UTC",
     "Fecha actual",
     "Fijo",
     "escribió",
     "Perfil",
     "Nombre de usuario",
     "Contraseña",
     "No hay mensajes",
     "¿Cómo me registro?",
     "Pulse Registrarse arriba y rellene el formulario.",
     "Normas del foro - leer antes de publicar",
     "¡Bienvenidos! Preséntate aquí",
     "Anuncios y novedades"},
    {"tr",
     "Forum ana sayfası",
     "Forum",
     "Konular",
     "Mesajlar",
     "Cevaplar",
     "Gösterim",
     "Son mesaj",
     "gönderen",
     "Konuyu açan",
     "Gönderim",
     "Sayfa",
     "/",
     "Sonraki",
     "Önceki",
     "Kayıt",
     "Üyeler",
     "SSS",
     "Ara",
     "Giriş yap",
     "Kayıt ol",
     "Tüm zamanlar UTC",
     "Şu anki zaman",
     "Sabit",
     "yazdı",
     "Profil",
     "Kullanıcı adı",
     "Şifre",
     "Mesaj yok",
     "Nasıl kayıt olurum?",
     "Sayfanın üstündeki Kayıt ol bağlantısına tıklayın.",
     "Forum kuralları - yazmadan önce okuyun",
     "Hoş geldiniz! Kendinizi tanıtın",
     "Duyurular ve haberler"},
    {"it",
     "Indice",
     "Forum",
     "Argomenti",
     "Messaggi",
     "Risposte",
     "Visite",
     "Ultimo messaggio",
     "da",
     "Aperto da",
     "Inviato il",
     "Pagina",
     "di",
     "Successivo",
     "Precedente",
     "Iscritto",
     "Utenti",
     "FAQ",
     "Cerca",
     "Accedi",
     "Iscriviti",
     "Tutti gli orari sono UTC",
     "La data di oggi è",
     "Importante",
     "ha scritto",
     "Profilo",
     "Nome utente",
     "Password",
     "Nessun messaggio",
     "Come mi iscrivo?",
     "Clicca su Iscriviti in alto e compila il modulo.",
     "Regolamento del forum - leggere prima di scrivere",
     "Benvenuti! Presentatevi qui",
     "Annunci e novità"},
    {"pl",
     "Strona główna forum",
     "Forum",
     "Tematy",
     "Posty",
     "Odpowiedzi",
     "Wyświetleń",
     "Ostatni post",
     "przez",
     "Autor tematu",
     "Wysłany",
     "Strona",
     "z",
     "Dalej",
     "Wstecz",
     "Rejestracja",
     "Użytkownicy",
     "FAQ",
     "Szukaj",
     "Zaloguj",
     "Zarejestruj",
     "Wszystkie czasy w strefie UTC",
     "Obecny czas",
     "Przyklejony",
     "napisał(a)",
     "Profil",
     "Nazwa użytkownika",
     "Hasło",
     "Brak postów",
     "Jak się zarejestrować?",
     "Kliknij Zarejestruj u góry strony i wypełnij formularz.",
     "Regulamin forum - przeczytaj przed pisaniem",
     "Witamy! Przedstaw się tutaj",
     "Ogłoszenia i nowości"},
    {"nl",
     "Forumoverzicht",
     "Forum",
     "Onderwerpen",
     "Berichten",
     "Reacties",
     "Bekeken",
     "Laatste bericht",
     "door",
     "Gestart door",
     "Geplaatst op",
     "Pagina",
     "van",
     "Volgende",
     "Vorige",
     "Lid sinds",
     "Leden",
     "FAQ",
     "Zoeken",
     "Inloggen",
     "Registreren",
     "Alle tijden zijn UTC",
     "Het is nu",
     "Sticky",
     "schreef",
     "Profiel",
     "Gebruikersnaam",
     "Wachtwoord",
     "Geen berichten",
     "Hoe registreer ik me?",
     "Klik bovenaan op Registreren en vul het formulier in.",
     "Forumregels - lees dit voor je post",
     "Welkom! Stel je hier voor",
     "Aankondigingen en nieuws"},
    {"zh",
     "论坛首页",
     "论坛",
     "主题",
     "帖子",
     "回复",
     "查看",
     "最后发表",
     "作者",
     "楼主",
     "发表于",
     "第",
     "页，共",
     "下一页",
     "上一页",
     "注册时间",
     "会员",
     "帮助",
     "搜索",
     "登录",
     "立即注册",
     "所有时间均为 UTC",
     "当前时间",
     "置顶",
     "写道",
     "个人资料",
     "用户名",
     "密码",
     "暂无帖子",
     "如何注册？",
     "点击页面顶部的“立即注册”并填写表单。",
     "论坛规则 - 发帖前请阅读",
     "欢迎！新人报到",
     "公告与新闻"},
};

/* Filler words: no month, weekday or number words, so that the only dates
 * on a page are the ones the forum prints. */
static const char *const WORDS[FR_TK_FORUM_N_LANGS][32] = {
    {"river",   "garden",  "letter",  "harbour", "winter",  "lantern",  "orchard", "quiet",
     "bright",  "railway", "kitchen", "market",  "meadow",  "silver",   "window",  "forest",
     "village", "copper",  "island",  "journey", "library", "mountain", "paper",   "signal",
     "station", "thunder", "valley",  "engine",  "bridge",  "candle",   "ladder",  "compass"},
    {"Fluss", "Garten", "Brief",      "Hafen",  "Laterne", "ruhig",   "hell",    "Bahn",
     "Küche", "Markt",  "Wiese",      "Silber", "Fenster", "Wald",    "Dorf",    "Kupfer",
     "Insel", "Reise",  "Bibliothek", "Berg",   "Papier",  "Signal",  "Bahnhof", "Donner",
     "Tal",   "Motor",  "Brücke",     "Kerze",  "Leiter",  "Kompass", "Angel",   "Rute"},
    {"rivière", "jardin", "lettre",       "port",     "lanterne", "verger",   "calme",   "clair",
     "cuisine", "marché", "prairie",      "argent",   "fenêtre",  "forêt",    "village", "cuivre",
     "île",     "voyage", "bibliothèque", "montagne", "papier",   "signal",   "gare",    "tonnerre",
     "vallée",  "moteur", "pont",         "bougie",   "échelle",  "boussole", "pêche",   "canne"},
    {"река",   "сад",     "письмо",     "гавань",  "фонарь",   "тихий",  "светлый", "дорога",
     "кухня",  "рынок",   "луг",        "серебро", "окно",     "лес",    "деревня", "медь",
     "остров", "поездка", "библиотека", "гора",    "бумага",   "сигнал", "станция", "гром",
     "долина", "мотор",   "мост",       "свеча",   "лестница", "компас", "рыбалка", "удочка"},
    {"río",    "jardín",  "carta",      "puerto",  "linterna", "huerto",  "tranquilo", "claro",
     "cocina", "mercado", "prado",      "plata",   "ventana",  "bosque",  "pueblo",    "cobre",
     "isla",   "viaje",   "biblioteca", "montaña", "papel",    "señal",   "estación",  "trueno",
     "valle",  "motor",   "puente",     "vela",    "escalera", "brújula", "pesca",     "caña"},
    {"nehir",  "bahçe",    "mektup",    "liman", "fener",    "sessiz", "parlak",   "demiryolu",
     "mutfak", "pazar",    "çayır",     "gümüş", "pencere",  "orman",  "köy",      "bakır",
     "ada",    "yolculuk", "kütüphane", "dağ",   "kağıt",    "sinyal", "istasyon", "gök",
     "vadi",   "motor",    "köprü",     "mum",   "merdiven", "pusula", "balık",    "olta"},
    {"fiume",  "giardino", "lettera",    "porto",    "lanterna", "frutteto", "tranquillo", "chiaro",
     "cucina", "mercato",  "prato",      "argento",  "finestra", "foresta",  "villaggio",  "rame",
     "isola",  "viaggio",  "biblioteca", "montagna", "carta",    "segnale",  "stazione",   "tuono",
     "valle",  "motore",   "ponte",      "candela",  "scala",    "bussola",  "pesca",      "canna"},
    {"rzeka",   "ogród",  "list",       "port",   "latarnia", "sad",    "cichy",  "jasny",
     "kuchnia", "targ",   "łąka",       "srebro", "okno",     "las",    "wieś",   "miedź",
     "wyspa",   "podróż", "biblioteka", "góra",   "papier",   "sygnał", "stacja", "grzmot",
     "dolina",  "silnik", "most",       "świeca", "drabina",  "kompas", "wędka",  "połów"},
    {"rivier", "tuin",  "brief",       "haven",  "lantaarn", "boomgaard", "rustig",  "helder",
     "keuken", "markt", "weide",       "zilver", "raam",     "bos",       "dorp",    "koper",
     "eiland", "reis",  "bibliotheek", "berg",   "papier",   "signaal",   "station", "donder",
     "vallei", "motor", "brug",        "kaars",  "ladder",   "kompas",    "hengel",  "vissen"},
    {"河流", "花园", "信件", "港口", "灯笼", "果园", "安静", "明亮", "铁路",   "厨房", "市场",
     "草地", "银色", "窗户", "森林", "村庄", "铜器", "岛屿", "旅行", "图书馆", "高山", "纸张",
     "信号", "车站", "雷声", "山谷", "引擎", "桥梁", "蜡烛", "梯子", "指南针", "钓鱼"},
};

static const char *const EN_MONTHS[12] = {"January",   "February", "March",    "April",
                                          "May",       "June",     "July",     "August",
                                          "September", "October",  "November", "December"};
static const char *const EN_MON[12] = {"Jan", "Feb", "Mar", "Apr", "May", "Jun",
                                       "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};
static const char *const EN_WDAY[7] = {"Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"};

/* Month names as the long form uses them (genitive where the language
 * declines: Russian, Polish). */
static const char *const MONTHS[FR_TK_FORUM_N_LANGS][12] = {
    {"January", "February", "March", "April", "May", "June", "July", "August", "September",
     "October", "November", "December"},
    {"Januar", "Februar", "März", "April", "Mai", "Juni", "Juli", "August", "September", "Oktober",
     "November", "Dezember"},
    {"janvier", "février", "mars", "avril", "mai", "juin", "juillet", "août", "septembre",
     "octobre", "novembre", "décembre"},
    {"января", "февраля", "марта", "апреля", "мая", "июня", "июля", "августа", "сентября",
     "октября", "ноября", "декабря"},
    {"enero", "febrero", "marzo", "abril", "mayo", "junio", "julio", "agosto", "septiembre",
     "octubre", "noviembre", "diciembre"},
    {"Ocak", "Şubat", "Mart", "Nisan", "Mayıs", "Haziran", "Temmuz", "Ağustos", "Eylül", "Ekim",
     "Kasım", "Aralık"},
    {"gennaio", "febbraio", "marzo", "aprile", "maggio", "giugno", "luglio", "agosto", "settembre",
     "ottobre", "novembre", "dicembre"},
    {"stycznia", "lutego", "marca", "kwietnia", "maja", "czerwca", "lipca", "sierpnia", "września",
     "października", "listopada", "grudnia"},
    {"januari", "februari", "maart", "april", "mei", "juni", "juli", "augustus", "september",
     "oktober", "november", "december"},
    {"1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "11", "12"},
};

/* Relative phrases: "%d" is the count. Plural forms: [one, few, many];
 * languages with two forms repeat the plural. */
struct relwords {
	const char *just_now;
	const char *min[3], *hour[3], *day[3];
	const char *today, *yesterday; /* "%s" is the time of day */
};

static const struct relwords REL[FR_TK_FORUM_N_LANGS] = {
    {"just now",
     {"%d minute ago", "%d minutes ago", "%d minutes ago"},
     {"%d hour ago", "%d hours ago", "%d hours ago"},
     {"%d day ago", "%d days ago", "%d days ago"},
     "Today at %s",
     "Yesterday at %s"},
    {"gerade eben",
     {"vor %d Minute", "vor %d Minuten", "vor %d Minuten"},
     {"vor %d Stunde", "vor %d Stunden", "vor %d Stunden"},
     {"vor %d Tag", "vor %d Tagen", "vor %d Tagen"},
     "Heute um %s",
     "Gestern um %s"},
    {"à l’instant",
     {"il y a %d minute", "il y a %d minutes", "il y a %d minutes"},
     {"il y a %d heure", "il y a %d heures", "il y a %d heures"},
     {"il y a %d jour", "il y a %d jours", "il y a %d jours"},
     "Aujourd’hui à %s",
     "Hier à %s"},
    {"только что",
     {"%d минуту назад", "%d минуты назад", "%d минут назад"},
     {"%d час назад", "%d часа назад", "%d часов назад"},
     {"%d день назад", "%d дня назад", "%d дней назад"},
     "Сегодня, %s",
     "Вчера, %s"},
    {"hace un momento",
     {"hace %d minuto", "hace %d minutos", "hace %d minutos"},
     {"hace %d hora", "hace %d horas", "hace %d horas"},
     {"hace %d día", "hace %d días", "hace %d días"},
     "Hoy a las %s",
     "Ayer a las %s"},
    {"az önce",
     {"%d dakika önce", "%d dakika önce", "%d dakika önce"},
     {"%d saat önce", "%d saat önce", "%d saat önce"},
     {"%d gün önce", "%d gün önce", "%d gün önce"},
     "Bugün %s",
     "Dün %s"},
    {"proprio ora",
     {"%d minuto fa", "%d minuti fa", "%d minuti fa"},
     {"%d ora fa", "%d ore fa", "%d ore fa"},
     {"%d giorno fa", "%d giorni fa", "%d giorni fa"},
     "Oggi alle %s",
     "Ieri alle %s"},
    {"przed chwilą",
     {"%d minutę temu", "%d minuty temu", "%d minut temu"},
     {"%d godzinę temu", "%d godziny temu", "%d godzin temu"},
     {"%d dzień temu", "%d dni temu", "%d dni temu"},
     "Dzisiaj, %s",
     "Wczoraj, %s"},
    {"zojuist",
     {"%d minuut geleden", "%d minuten geleden", "%d minuten geleden"},
     {"%d uur geleden", "%d uur geleden", "%d uur geleden"},
     {"%d dag geleden", "%d dagen geleden", "%d dagen geleden"},
     "Vandaag om %s",
     "Gisteren om %s"},
    {"刚刚",
     {"%d 分钟前", "%d 分钟前", "%d 分钟前"},
     {"%d 小时前", "%d 小时前", "%d 小时前"},
     {"%d 天前", "%d 天前", "%d 天前"},
     "今天 %s",
     "昨天 %s"},
};

static const char *const DSTYLE_NAMES[FR_TK_FORUM_N_DSTYLES] = {"en-phpbb", "en-long", "en-short",
                                                             "num-mdy",  "num-dmy", "num-dot",
                                                             "num-dot2", "num-ymd", "text"};

const struct fr_tk_forum_ui *
fr_tk_forum_lang_ui(enum fr_tk_forum_lang lang)
{
	return &LANGS[(unsigned)lang < FR_TK_FORUM_N_LANGS ? lang : FR_TK_FORUM_EN];
}

const char *
fr_tk_forum_lang_word(enum fr_tk_forum_lang lang, uint64_t i)
{
	return WORDS[(unsigned)lang < FR_TK_FORUM_N_LANGS ? lang : FR_TK_FORUM_EN][i % 32];
}

int
fr_tk_forum_lang_spaced(enum fr_tk_forum_lang lang)
{
	return lang != FR_TK_FORUM_ZH;
}

const char *
fr_tk_forum_lang_dstyle_name(enum fr_tk_forum_dstyle ds)
{
	return (unsigned)ds < FR_TK_FORUM_N_DSTYLES ? DSTYLE_NAMES[ds] : "?";
}

const char *
fr_tk_forum_lang_rel_name(enum fr_tk_forum_rel rel)
{
	return rel == FR_TK_FORUM_REL_DAY ? "day" : rel == FR_TK_FORUM_REL_AGO ? "ago" : "none";
}

static void
utc(int64_t t_s, struct tm *tm)
{
	time_t t = (time_t)t_s;

	gmtime_r(&t, tm);
}

/* 12-hour clock "09:15 PM" (pad 1) or "9:15 pm" (pad 0, lower 1). */
static void
clock12(struct fr_text *out, const struct tm *tm, int pad, int lower, int secs)
{
	int h = tm->tm_hour % 12 ? tm->tm_hour % 12 : 12;
	const char *ap = tm->tm_hour < 12 ? (lower ? "am" : "AM") : (lower ? "pm" : "PM");

	if (secs)
		fr_text_printf(out, pad ? "%02d:%02d:%02d %s" : "%d:%02d:%02d %s", h, tm->tm_min,
		               tm->tm_sec, ap);
	else
		fr_text_printf(out, pad ? "%02d:%02d %s" : "%d:%02d %s", h, tm->tm_min, ap);
}

/* The time of day as the style writes it, for the relative day words. */
static void
time_of_day(struct fr_text *out, enum fr_tk_forum_lang lang, enum fr_tk_forum_dstyle ds,
            const struct tm *tm)
{
	switch (ds) {
	case FR_TK_FORUM_DS_EN_PHPBB:
		clock12(out, tm, 0, 1, 0);
		return;
	case FR_TK_FORUM_DS_EN_LONG:
		clock12(out, tm, 1, 0, 1);
		return;
	case FR_TK_FORUM_DS_EN_SHORT:
	case FR_TK_FORUM_DS_NUM_MDY:
		clock12(out, tm, 1, 0, 0);
		return;
	case FR_TK_FORUM_DS_TEXT:
		if (lang == FR_TK_FORUM_FR) {
			fr_text_printf(out, "%02dh%02d", tm->tm_hour, tm->tm_min);
			return;
		}
		if (lang == FR_TK_FORUM_EN) {
			clock12(out, tm, 1, 0, 0);
			return;
		}
		break;
	default:
		break;
	}
	fr_text_printf(out, "%02d:%02d", tm->tm_hour, tm->tm_min);
}

static void
text_form(struct fr_text *out, enum fr_tk_forum_lang lang, const struct tm *tm)
{
	int d = tm->tm_mday, y = tm->tm_year + 1900;
	const char *m = MONTHS[lang][tm->tm_mon];

	switch (lang) {
	case FR_TK_FORUM_EN:
		fr_text_printf(out, "%d %s %d, ", d, m, y);
		clock12(out, tm, 1, 0, 0);
		return;
	case FR_TK_FORUM_DE:
		fr_text_printf(out, "%d. %s %d um %02d:%02d", d, m, y, tm->tm_hour, tm->tm_min);
		return;
	case FR_TK_FORUM_FR:
		fr_text_printf(out, "%d %s %d à %02dh%02d", d, m, y, tm->tm_hour, tm->tm_min);
		return;
	case FR_TK_FORUM_ES:
		fr_text_printf(out, "%d de %s de %d, %02d:%02d", d, m, y, tm->tm_hour, tm->tm_min);
		return;
	case FR_TK_FORUM_TR:
		fr_text_printf(out, "%d %s %d %02d:%02d", d, m, y, tm->tm_hour, tm->tm_min);
		return;
	case FR_TK_FORUM_NL:
		fr_text_printf(out, "%d %s %d om %02d:%02d", d, m, y, tm->tm_hour, tm->tm_min);
		return;
	case FR_TK_FORUM_ZH:
		fr_text_printf(out, "%d年%d月%d日 %02d:%02d", y, tm->tm_mon + 1, d, tm->tm_hour,
		               tm->tm_min);
		return;
	default: /* ru, it, pl */
		fr_text_printf(out, "%d %s %d, %02d:%02d", d, m, y, tm->tm_hour, tm->tm_min);
		return;
	}
}

void
fr_tk_forum_lang_date_abs(struct fr_text *out, enum fr_tk_forum_lang lang,
                          enum fr_tk_forum_dstyle ds, int64_t t_s)
{
	struct tm tm;
	int y;

	utc(t_s, &tm);
	y = tm.tm_year + 1900;
	if ((unsigned)lang >= FR_TK_FORUM_N_LANGS)
		lang = FR_TK_FORUM_EN;
	switch (ds) {
	case FR_TK_FORUM_DS_EN_PHPBB:
		fr_text_printf(out, "%s %s %d, %d ", EN_WDAY[tm.tm_wday], EN_MON[tm.tm_mon],
		               tm.tm_mday, y);
		clock12(out, &tm, 0, 1, 0);
		break;
	case FR_TK_FORUM_DS_EN_LONG:
		fr_text_printf(out, "%s %d, %d, ", EN_MONTHS[tm.tm_mon], tm.tm_mday, y);
		clock12(out, &tm, 1, 0, 1);
		break;
	case FR_TK_FORUM_DS_EN_SHORT:
		fr_text_printf(out, "%s %d, %d, ", EN_MON[tm.tm_mon], tm.tm_mday, y);
		clock12(out, &tm, 1, 0, 0);
		break;
	case FR_TK_FORUM_DS_NUM_MDY:
		fr_text_printf(out, "%02d-%02d-%d, ", tm.tm_mon + 1, tm.tm_mday, y);
		clock12(out, &tm, 1, 0, 0);
		break;
	case FR_TK_FORUM_DS_NUM_DMY:
		fr_text_printf(out, "%02d/%02d/%d, %02d:%02d", tm.tm_mday, tm.tm_mon + 1, y,
		               tm.tm_hour, tm.tm_min);
		break;
	case FR_TK_FORUM_DS_NUM_DOT:
		fr_text_printf(out, "%02d.%02d.%d, %02d:%02d", tm.tm_mday, tm.tm_mon + 1, y,
		               tm.tm_hour, tm.tm_min);
		break;
	case FR_TK_FORUM_DS_NUM_DOT2:
		fr_text_printf(out, "%02d.%02d.%02d %02d:%02d", tm.tm_mday, tm.tm_mon + 1, y % 100,
		               tm.tm_hour, tm.tm_min);
		break;
	case FR_TK_FORUM_DS_NUM_YMD:
		fr_text_printf(out, "%d-%02d-%02d %02d:%02d", y, tm.tm_mon + 1, tm.tm_mday,
		               tm.tm_hour, tm.tm_min);
		break;
	default:
		text_form(out, lang, &tm);
		break;
	}
}

int
fr_tk_forum_lang_same_year(int64_t a, int64_t b)
{
	struct tm ta, tb;

	utc(a, &ta);
	utc(b, &tb);
	return ta.tm_year == tb.tm_year;
}

void
fr_tk_forum_lang_date_noyear(struct fr_text *out, enum fr_tk_forum_dstyle ds, int64_t t_s)
{
	struct tm tm;

	utc(t_s, &tm);
	if (ds == FR_TK_FORUM_DS_NUM_YMD)
		fr_text_printf(out, "%02d/%02d %02d:%02d", tm.tm_mon + 1, tm.tm_mday, tm.tm_hour,
		               tm.tm_min);
	else if (ds == FR_TK_FORUM_DS_NUM_DMY)
		fr_text_printf(out, "%02d/%02d, %02d:%02d", tm.tm_mday, tm.tm_mon + 1, tm.tm_hour,
		               tm.tm_min);
	else
		fr_tk_forum_lang_date_abs(out, FR_TK_FORUM_EN, ds, t_s);
}

/* Plural form 0 (one), 1 (few) or 2 (many) of n in lang. */
static int
plural(enum fr_tk_forum_lang lang, long n)
{
	long m10 = n % 10, m100 = n % 100;

	switch (lang) {
	case FR_TK_FORUM_RU:
		if (m10 == 1 && m100 != 11)
			return 0;
		return m10 >= 2 && m10 <= 4 && (m100 < 12 || m100 > 14) ? 1 : 2;
	case FR_TK_FORUM_PL:
		if (n == 1)
			return 0;
		return m10 >= 2 && m10 <= 4 && (m100 < 12 || m100 > 14) ? 1 : 2;
	case FR_TK_FORUM_FR:
		return n <= 1 ? 0 : 1;
	default:
		return n == 1 ? 0 : 1;
	}
}

int
fr_tk_forum_lang_date_shown(struct fr_text *out, enum fr_tk_forum_lang lang,
                            enum fr_tk_forum_dstyle ds, enum fr_tk_forum_rel rel, int64_t t_s,
                            double now_s)
{
	const struct relwords *w;
	double age = now_s - (double)t_s;

	if ((unsigned)lang >= FR_TK_FORUM_N_LANGS)
		lang = FR_TK_FORUM_EN;
	w = &REL[lang];
	if (rel == FR_TK_FORUM_REL_AGO && age >= 0 && age < 7 * 86400.0) {
		long n;
		const char *const *forms;

		if (age < 60) {
			fr_text_puts(out, w->just_now);
			return 1;
		}
		if (age < 3600) {
			n = (long)(age / 60);
			forms = w->min;
		} else if (age < 86400) {
			n = (long)(age / 3600);
			forms = w->hour;
		} else {
			n = (long)(age / 86400);
			forms = w->day;
		}
		fr_text_printf(out, forms[plural(lang, n)], (int)n);
		return 1;
	}
	if (rel == FR_TK_FORUM_REL_DAY && age >= 0) {
		int64_t day = (int64_t)(t_s >= 0 ? t_s / 86400 : (t_s - 86399) / 86400);
		int64_t today = (int64_t)(now_s / 86400);

		if (day == today || day == today - 1) {
			struct fr_text tod = {0};
			struct tm tm;

			utc(t_s, &tm);
			time_of_day(&tod, lang, ds, &tm);
			fr_text_printf(out, day == today ? w->today : w->yesterday,
			               tod.p ? tod.p : "");
			fr_text_free(&tod);
			return 1;
		}
	}
	fr_tk_forum_lang_date_abs(out, lang, ds, t_s);
	return 0;
}

void
fr_tk_forum_lang_date_iso(struct fr_text *out, int64_t t_s)
{
	struct tm tm;

	utc(t_s, &tm);
	fr_text_printf(out, "%04d-%02d-%02dT%02d:%02d:%02d+00:00", tm.tm_year + 1900, tm.tm_mon + 1,
	               tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec);
}
