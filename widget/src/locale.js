// Every string the panel shows, per locale: English, French, and Arabic (right to left). A site
// picks one with `locale` (data-locale, `setLocale`) and may change single labels with `labels`.
// A message with `{name}` takes that value; a count's message has one form per plural category
// of Intl.PluralRules (Arabic has six).

const en = {
  openChat: "Open chat",
  closeChat: "Close chat",
  title: "Agent",
  trace: "Trace",
  traceMinimal: "Minimal",
  traceNormal: "Normal",
  traceFull: "Verbose",
  loading: "Loading the conversation…",
  loadFailed: "Could not load the conversation: {error}",
  retry: "Retry",
  empty: "Ask the agent anything.",
  message: "Message",
  placeholder: "Message the agent…",
  send: "Send",
  stop: "Stop",
  working: "Working…",
  thinking: "Thinking…",
  runningTool: "Running {tool}…",
  runningAnyTool: "Running a tool…",
  compacting: "Compacting…",
  reasoning: "Reasoning",
  toolPending: "pending",
  toolRunning: "running",
  toolDone: "done",
  toolFailed: "failed",
  toolAwaiting: "awaiting approval",
  toolDenied: "denied",
  input: "Input",
  output: "Output",
  question: "Question from the agent",
  answered: "Answered: {answer}",
  answer: "Answer",
  approvalAsk: "Allow {tool} to run?",
  approve: "Approve",
  deny: "Deny",
  approved: "Approved",
  denied: "Denied",
  workedFor: "Worked for {duration}",
  milliseconds: "{n} ms",
  seconds: "{n} s",
  minutes: "{m} min {s} s",
  toolCount: { one: "{n} tool", other: "{n} tools" },
  tokenCount: { one: "{n} token", other: "{n} tokens" },
  failedCount: { other: "{n} failed" },
  image: "Image: {alt}",
  unreachable: "The agent cannot be reached. Check the connection.",
  somethingWrong: "Something went wrong.",
  panelFailed: "The chat could not be loaded. Try again.",
  openChatUnread: { one: "Open chat, {n} unread answer", other: "Open chat, {n} unread answers" },
  stopped: "Stopped",
  stoppedAfter: "Stopped after {duration}",
  notAllowed: "Your sign-in for this chat has expired or is not valid. Reload the page to sign in again.",
  tooMany: "Too many messages at once. Wait a moment, then try again.",
  tooLong: "This message is too long to send. Shorten it and try again.",
  unavailable: "The agent is unavailable right now. Try again in a moment.",
  cannotTakeBack: "This agent cannot redo an answer or edit a message. Send a new message instead.",
  staleConversation: "This conversation has changed in another tab or on another device. Reload the page, then send again.",
  editMessage: "Edit message",
  tryAgain: "Try again",
  editing: "Editing your message",
  cancelEdit: "Cancel",
  versions: "Version {n} of {count}",
  previousVersion: "Previous version",
  nextVersion: "Next version",
  loadOlder: "Load older messages",
};

const fr = {
  openChat: "Ouvrir la discussion",
  closeChat: "Fermer la discussion",
  title: "Agent",
  trace: "Détail",
  traceMinimal: "Minimal",
  traceNormal: "Normal",
  traceFull: "Complet",
  loading: "Chargement de la conversation…",
  loadFailed: "Impossible de charger la conversation : {error}",
  retry: "Réessayer",
  empty: "Posez votre question à l’agent.",
  message: "Message",
  placeholder: "Écrire à l’agent…",
  send: "Envoyer",
  stop: "Arrêter",
  working: "En cours…",
  thinking: "Réflexion…",
  runningTool: "Exécution de {tool}…",
  runningAnyTool: "Exécution d’un outil…",
  compacting: "Compactage…",
  reasoning: "Raisonnement",
  toolPending: "en attente",
  toolRunning: "en cours",
  toolDone: "terminé",
  toolFailed: "échec",
  toolAwaiting: "en attente d’accord",
  toolDenied: "refusé",
  input: "Entrée",
  output: "Résultat",
  question: "Question de l’agent",
  answered: "Réponse : {answer}",
  answer: "Répondre",
  approvalAsk: "Autoriser {tool} à s’exécuter ?",
  approve: "Autoriser",
  deny: "Refuser",
  approved: "Autorisé",
  denied: "Refusé",
  workedFor: "A travaillé {duration}",
  milliseconds: "{n} ms",
  seconds: "{n} s",
  minutes: "{m} min {s} s",
  toolCount: { one: "{n} outil", other: "{n} outils" },
  tokenCount: { one: "{n} jeton", other: "{n} jetons" },
  failedCount: { one: "{n} en échec", other: "{n} en échec" },
  image: "Image : {alt}",
  unreachable: "L’agent est injoignable. Vérifiez la connexion.",
  somethingWrong: "Une erreur est survenue.",
  panelFailed: "La discussion n’a pas pu être chargée. Réessayez.",
  openChatUnread: { one: "Ouvrir la discussion, {n} réponse non lue", other: "Ouvrir la discussion, {n} réponses non lues" },
  stopped: "Arrêté",
  stoppedAfter: "Arrêté après {duration}",
  notAllowed: "Votre connexion à cette discussion a expiré ou n’est pas valide. Rechargez la page pour vous reconnecter.",
  tooMany: "Trop de messages à la fois. Patientez un instant, puis réessayez.",
  tooLong: "Ce message est trop long pour être envoyé. Raccourcissez-le et réessayez.",
  cannotTakeBack: "Cet agent ne peut pas refaire une réponse ni modifier un message. Envoyez plutôt un nouveau message.",
  staleConversation: "Cette conversation a changé dans un autre onglet ou sur un autre appareil. Rechargez la page, puis renvoyez votre message.",
  editMessage: "Modifier le message",
  tryAgain: "Réessayer la réponse",
  editing: "Modification de votre message",
  cancelEdit: "Annuler",
  versions: "Version {n} sur {count}",
  previousVersion: "Version précédente",
  nextVersion: "Version suivante",
  loadOlder: "Charger les messages précédents",
  unavailable: "L’agent est indisponible pour le moment. Réessayez dans un instant.",
};

const ar = {
  openChat: "افتح المحادثة",
  closeChat: "أغلق المحادثة",
  title: "المساعد",
  trace: "التفاصيل",
  traceMinimal: "موجز",
  traceNormal: "عادي",
  traceFull: "مفصّل",
  loading: "جارٍ تحميل المحادثة…",
  loadFailed: "تعذّر تحميل المحادثة: {error}",
  retry: "أعد المحاولة",
  empty: "اسأل المساعد عن أي شيء.",
  message: "الرسالة",
  placeholder: "اكتب رسالتك إلى المساعد…",
  send: "أرسل",
  stop: "أوقف",
  working: "جارٍ العمل…",
  thinking: "يفكّر…",
  runningTool: "يشغّل {tool}…",
  runningAnyTool: "يشغّل أداة…",
  compacting: "يضغط السياق…",
  reasoning: "الاستدلال",
  toolPending: "قيد الانتظار",
  toolRunning: "قيد التشغيل",
  toolDone: "تمّ",
  toolFailed: "فشل",
  toolAwaiting: "بانتظار الموافقة",
  toolDenied: "مرفوض",
  input: "المدخلات",
  output: "المخرجات",
  question: "سؤال من المساعد",
  answered: "الإجابة: {answer}",
  answer: "أجب",
  approvalAsk: "هل تسمح بتشغيل {tool}؟",
  approve: "اسمح",
  deny: "ارفض",
  approved: "تمّت الموافقة",
  denied: "مرفوض",
  workedFor: "عمل لمدة {duration}",
  milliseconds: "{n} ملّي ثانية",
  seconds: "{n} ث",
  minutes: "{m} د {s} ث",
  toolCount: {
    zero: "لا أدوات",
    one: "أداة واحدة",
    two: "أداتان",
    few: "{n} أدوات",
    many: "{n} أداة",
    other: "{n} أداة",
  },
  failedCount: { other: "{n} فشلت" },
  tokenCount: { other: "{n} رمز" },
  image: "صورة: {alt}",
  unreachable: "لا يمكن الوصول إلى المساعد. تحقّق من الاتصال.",
  somethingWrong: "حدث خطأ ما.",
  panelFailed: "تعذّر تحميل المحادثة. أعد المحاولة.",
  openChatUnread: {
    zero: "افتح المحادثة، لا إجابات غير مقروءة",
    one: "افتح المحادثة، إجابة واحدة غير مقروءة",
    two: "افتح المحادثة، إجابتان غير مقروءتين",
    few: "افتح المحادثة، {n} إجابات غير مقروءة",
    many: "افتح المحادثة، {n} إجابة غير مقروءة",
    other: "افتح المحادثة، {n} إجابة غير مقروءة",
  },
  stopped: "أُوقف",
  stoppedAfter: "أُوقف بعد {duration}",
  notAllowed: "انتهت صلاحية تسجيل دخولك إلى هذه المحادثة أو أنه غير صالح. أعد تحميل الصفحة لتسجيل الدخول مجددًا.",
  tooMany: "رسائل كثيرة في وقت واحد. انتظر قليلًا ثم أعد المحاولة.",
  tooLong: "هذه الرسالة أطول من أن تُرسل. اختصرها وأعد المحاولة.",
  cannotTakeBack: "لا يستطيع هذا المساعد إعادة إجابة أو تعديل رسالة. أرسل رسالة جديدة بدلًا من ذلك.",
  staleConversation: "تغيّرت هذه المحادثة في علامة تبويب أخرى أو على جهاز آخر. أعد تحميل الصفحة ثم أرسل رسالتك مجددًا.",
  editMessage: "تعديل الرسالة",
  tryAgain: "أعد الإجابة",
  editing: "تعديل رسالتك",
  cancelEdit: "إلغاء",
  versions: "النسخة {n} من {count}",
  previousVersion: "النسخة السابقة",
  nextVersion: "النسخة التالية",
  loadOlder: "حمّل الرسائل الأقدم",
  unavailable: "المساعد غير متاح حاليًا. أعد المحاولة بعد قليل.",
};

/** The locales shipped, by their BCP 47 language subtag. */
export const LOCALES = { en, fr, ar };

/** Languages written right to left (of those shipped, and those a site may add labels for). */
const RIGHT_TO_LEFT = new Set(["ar", "fa", "he", "ur"]);

/** The keys a site's `labels` may set. */
export const LABEL_NAMES = Object.keys(en);

/**
 * The locale to use for `requested` ("fr", "fr-CA", "ar-EG"…): the shipped table of its
 * language, else English. Returns { locale, lang, dir, messages } with `labels` (a site's
 * overrides, by key) over the table's messages; unknown label keys are named in the console.
 */
export function resolveLocale(requested, labels = {}) {
  const lang = String(requested || "en").toLowerCase().split(/[-_]/)[0];
  const table = LOCALES[lang] ? lang : "en";
  const unknown = Object.keys(labels).filter((name) => !LABEL_NAMES.includes(name));
  if (unknown.length > 0) console.error(`AgentChat: unknown label ${unknown.join(", ")} (known: ${LABEL_NAMES.join(", ")})`);
  return {
    locale: table,
    lang: table,
    dir: RIGHT_TO_LEFT.has(table) ? "rtl" : "ltr",
    messages: { ...en, ...LOCALES[table], ...labels },
  };
}

/** `template` with each `{name}` replaced by `values[name]`. */
export function format(template, values = {}) {
  return String(template).replace(/\{(\w+)\}/g, (whole, name) => (name in values ? String(values[name]) : whole));
}

/**
 * A count's message: the form of `forms` for `n`'s plural category in `locale` (else `other`),
 * with `{n}` the number as the locale writes it.
 */
export function plural(forms, n, locale) {
  if (typeof forms === "string") return format(forms, { n: n.toLocaleString(locale) });
  const category = new Intl.PluralRules(locale).select(n);
  return format(forms[category] ?? forms.other, { n: n.toLocaleString(locale) });
}
