"""L0's lexicons: small per-language word lists for the semantic slots guardrails/screening.py combines.

Each slot holds regex fragments for one meaning (a verb that drops instructions, a word for the
assistant's own rules, a claim of staff authority, ...) in English, German, French, Spanish and
Dutch. Entries are written as they look after screening's folding: lowercase, accents removed,
"ß" as "ss". No entry is a whole attack sentence: a slot alone never flags; the rules in
screening.py say which slots must meet in one clause.
"""

# Languages in each slot, in this order: en, de, fr, es, nl.

# Verbs (and verb phrases) that tell the listener to stop following something.
OVERRIDE_VERBS = (
    r"ignor(?:e|es|ed|ing)|disregard(?:ing)?|forget(?:ting)?|overrid(?:e|ing)|overrule|bypass(?:ing)?|circumvent|"
    r"discard|abandon|dismiss|ditch|scrap|erase|wipe|nullify|cancel|neglect|set aside|put aside|throw (?:away|out)|"
    r"overlook|"
    r"delete|remove|drop|lose|shed|overwrite|revoke|suspend|disable|deactivate|turn off|switch off|"
    r"(?:the )?opposite of|whatever|regardless of(?: what)?|no matter what|despite|in spite of|(?:act|answer|respond|"
    r"operate|work) without|(?:stop|quit|cease) (?:following|obeying|listening to|using|applying)|pay no (?:attention|"
    r"heed|mind) to|(?:don'?t|do not|no longer|stop|never) (?:follow(?:ing)?|obey(?:ing)?|listen(?:ing)? to|adher(?:e|"
    r"ing) to)",
    r"ignorier(?:e|en|t|st)?|vergiss|vergessen|vergesst|missacht(?:e|en|et)|verwirf|verwerfen|(?:hor|horen sie|"
    r"hort) auf|ausser acht|(?:befolge|befolgen|beachte|beachten) (?:sie )?(?:nicht|keine)|(?:halte|halt|"
    r"halten) (?:dich|sich|sie sich) (?:ab sofort |ab jetzt |jetzt |bitte )?(?:nicht|nicht mehr|nie) an|"
    r"deaktivier\w*|ausschalten|schalte\b[^.!?\n]{0,30}?\baus|scheiss auf|pfeif auf|lass\b[^.!?\n]{0,40}?\bweg\b|"
    r"ausser kraft|(?:losche|loschen|setze|"
    r"setzen) (?:sie )?zuruck",
    r"laisse[rz]? tomber|(?:arrete|arretez|cesse|cessez) de (?:suivre|respecter|obeir|appliquer)|ignor(?:ez|er|e)|"
    r"zappe[rz]?|(?:considerez|considere) (?:toutes? )?(?:vos|tes)|"
    r"oubli(?:ez|er|e)|(?:ne )?(?:pas )?(?:tiens|tenez|tenir) (?:plus |pas )?compte|(?:fais|faites|faire) abstraction|"
    r"outrepass(?:e|ez|er)|contourn(?:e|ez|er)|(?:ne )?(?:suis|suivez|respecte|respectez) plus",
    r"ignor(?:a|e|ar|ad)|olvid(?:a|e|ar|ate|ese|ad)|(?:no )?(?:hagas|haga|hagan) caso|(?:haz|haga) caso omiso|"
    r"pasa de|pasate|saltate|saltese|salta(?:te)? (?:las|tus)|"
    r"omit(?:e|a|ir)|descart(?:a|e|ar|en)|desactiv(?:a|e|ar|en)|saltarte|(?:deja|deje|dejar|dejen) de lado|(?:deja|"
    r"dejen|deje) de (?:seguir|obedecer|aplicar)|"
    r"no (?:tengan?|tengas) en cuenta|no (?:sigas|"
    r"siga|obedezcas|obedezca)",
    r"stop met (?:het )?(?:volgen|opvolgen|gehoorzamen)|buiten beschouwing|negeer\w*|vergeet|vergeten|(?:trek|"
    r"trekt) (?:je|u) (?:even |maar )?(?:niks|niets) aan|(?:houd|hou|houdt) (?:je|u) (?:niet|"
    r"geen rekening (?:meer )?met)|"
    r"uitschakelen|uitzetten|schakel\b[^.!?\n]{0,30}?\buit|laat\b[^.!?\n]{0,40}?\bzitten\b|(?:volg|volgt) (?:niet|"
    r"geen)|"
    r"niet meer (?:volgen|opvolgen)|overschrijf",
)

# Words for the assistant's own rules and set-up. Strong ones name nothing a customer owns.
SETUP_STRONG = (
    r"system ?(?:prompts?|messages?|instructions?|rules?)|programming|training|guardrails?|safeguards?|filters?|"
    r"content polic(?:y|ies)|safety (?:rules|settings|filters|guidelines|protocols?)|pre-?prompt|(?:initial|original|"
    r"hidden|secret|internal|core|base|developer|underlying) (?:prompts?|orders|instructions|rules|directives|"
    r"guidelines|configuration|setup|text|messages?|part)|(?:rules|instructions|guidelines|prompt|directives|"
    r"restrictions|guidance|words|text|lines|sentences?|message) (?:that )?(?:you(?:'re| are)? (?:running on|"
    r"working from|operating under)|you (?:follow|obey|were (?:given|set up with|configured with|told|"
    r"initiali[sz]ed with|loaded with|fed)|have been given|'ve been given|received|got|operate under|run on|"
    r"started with)|(?:the |your )?(?:developers?|creators?|operators?|bookly|admins?|company|anthropic|openai|"
    r"makers?) (?:gave|wrote|provided|set|loaded|programmed)(?: into| for| to)? you)|(?:rules|instructions|guidelines|"
    r"policies) of (?:your|the) system|(?:messages?|instructions?|text|notes?|rules) from (?:the )?(?:system|"
    r"developers?|operator|admins?)|who you (?:are|were)|your (?:identity|true self|purpose)|(?:rules|regeln|regels|"
    r"regles|reglas|normas|instructions|anweisungen|instructies|instrucciones|consignes|policies|richtlinien|"
    r"richtlijnen|vorgaben) (?:von|van|de|of|del|by|bei) bookly|support-?(?:kram|zeug|rolle|gedoe)|"
    r"(?:the )?(?:bookstore|bookly|support|customer[- ]service|book|store)(?:'?s)? (?:rules|policies|guidelines|stuff|"
    r"thing|role|act|persona|job|talk|nonsense|business|script|character)|(?:bookly|anthropic|openai)(?=\s*(?:[,;!?]|"
    r"\.(?!\w)|$|anymore|any more|and|now))|your (?:developers?|creators?|operators?|makers?|company|bosses|owners?)",
    r"(?:ihnen|dir) (?:erteilten|gegebenen|vorgegebenen|auferlegten) (?:anweisungen|regeln|vorgaben|instruktionen)|"
    r"(?:vorgaben|regeln|anweisungen) (?:ihres|deines|des) systems|(?:text|prompt|anweisungen|nachricht),? (?:den|die|"
    r"das) (?:\w+ )?dir (?:\w+ )?(?:gegeben|geschrieben)|systemanweisung(?:en)?|systemprompt|systemregeln|"
    r"programmierung|(?:anweisungen|regeln|instruktionen|vorgaben)\b[^.!?\n]{0,10}?\b(?:du|man dir|"
    r"sie)\b[^.!?\n]{0,30}?(?:bekommen|erhalten|gegeben|gesagt)",
    r"(?:texte|prompt|instructions|message|consignes) (?:que|qu') ?(?:\w+ )?(?:t'a|vous a) (?:donne|ecrit|fourni|"
    r"impose|dit)e?s?|(?:prompt|instructions?|consignes|regles) (?:du )?systeme|programmation|(?:instructions|regles|"
    r"consignes) (?:(?:qu'on|que l'on|que) )?(?:t'a|vous a|tu as|vous avez) (?:donnees|dites|recues)",
    r"(?:texto|prompt|instrucciones|mensaje) que (?:\w+ )?(?:te|le|les) (?:dio|dieron|escribio|escribieron|"
    r"impusieron)|(?:prompt|instrucciones|reglas|indicaciones|normas) del sistema|programacion|(?:instrucciones|"
    r"reglas|normas)\b[^.!?\n]{0,15}?(?:recibiste|recibio|que (?:te|le) (?:dieron|han dado|dio|dijeron))",
    r"(?:tekst|prompt|instructies|bericht) die (?:\w+ )?(?:je|jou|u) (?:\w+ ){0,4}?(?:heeft |hebt )?(?:gegeven|"
    r"geschreven|kreeg|gekregen)|systeemprompt|systeeminstructies|systeemregels|programmering|(?:instructies|"
    r"regels) die (?:je|u|jij)\b[^.!?\n]{0,30}?(?:gekregen|gegeven|verteld)",
)
SETUP_WEAK = (
    r"instructions?|instruction set|prompts?|rules?|guidelines?|directives?|directions|guidance|restrictions?|"
    r"constraints?|limitations?|protocols?|principles|ethics|morals|commands|rulebook|configuration|config|setup|"
    r"context(?: window)?|memory|persona|goals?|objectives?|rulez",
    r"anweisung(?:en)?|instruktion(?:en)?|regeln?|richtlinien?|vorgaben|vorschriften|einschrankungen|beschrankungen|"
    r"befehle|auftrage|sicherheitsregeln",
    r"instructions?|regles?|consignes?|directives?|restrictions?|limites",
    r"instrucciones|instruccion|reglas|normas|directrices|indicaciones|restricciones|limitaciones|ordenes anteriores|"
    r"normas que te (?:pusieron|dieron)",
    r"instructies?|regels?|richtlijnen|voorschriften|beperkingen|opdrachten|veiligheidsregels",
)

# "Your", said to the assistant (formal and informal).
YOUR = (
    r"your|ur|bookly(?:'?s)?|the store'?s|the company'?s",
    r"deine[nmrs]?|ihre[nmrs]?",
    r"tes|tu|vos|votre",
    r"tus|tu|sus|su",
    r"je|jouw|uw",
)

# Words that widen an instruction to everything before: "all previous", "everything above".
SCOPE = (
    r"all|any|every|each|previous|prior|above|earlier|preceding|foregoing|former|original|initial|everything|anything|"
    r"whatever",
    r"samtliche[nmr]?|alle[nms]?|vorherigen?|bisherigen?|fruheren?|obigen?|vorangegangenen?|alles|vorher",
    r"toutes?|tous|precedentes?|anterieures?|ci-dessus|tout",
    r"todas?|todos?|anteriores?|previas?|previos?|todo",
    r"alle|eerdere?|vorige?|voorgaande|bovenstaande|alles|voorheen",
)

# What the customer owns: taking back their own words is not an attack.
OWN = (
    r"my|mine|i (?:gave|sent|wrote|typed|said|made|left|put|mentioned|told)",
    r"meine[nmrs]?|ich",
    r"mon|ma|mes|j'?ai",
    r"mis?|mias?|le di",
    r"mijn|ik",
)

# Everyday support words: "disregard the previous instructions, leave it with my neighbour".
SUPPORT_CONTEXT = (
    r"address|deliver(?:y|ed|ing)?|courier|driver|parcel|package|neighbou?r|door|porch|doorstep|mailbox|reception|"
    r"label|postcode|zip code|street|apartment|email|e-mail|message|order (?:number|id)|tracking|gift ?wrap(?:ping)?|"
    r"arrived|found it|spam folder|typo|wrong (?:number|order)",
    r"adresse|lieferung|zustellung|paket|nachbarn?|tur|briefkasten|nachricht|bestellnummer|angekommen",
    r"adresse|livraison|livreur|colis|voisine?|porte|boite aux lettres|message|arrive",
    r"direccion|entrega|repartidor|paquete|vecin[oa]|puerta|buzon|mensaje|llego",
    r"adres|bezorg\w*|pakket|pakje|buren|buurman|buurvrouw|deur|brievenbus|bericht|aangekomen",
)

# Said of rules: they stop applying.
VOID = (
    r"(?:is|are|was|were|have been|has been) (?:now |hereby |officially )?(?:void|null|obsolete|outdated|invalid|"
    r"cancell?ed|suspended|lifted|revoked|overridden|irrelevant|deprecated|disabled|removed|optional|gone|fake|a test|"
    r"a lie)|no longer (?:apply|applies|matters?|valid|in effect|active|binding|relevant|exists?)|(?:doesn'?t|don'?t|"
    r"does not|do not|didn'?t) (?:apply|matter|count|exist)(?! to (?:ebooks|gift|personali))|matters? (?:now|anymore|"
    r"any more)|(?:was|were|is|are) (?:written|sent|added|inserted) by (?:an? )?(?:attacker|hacker|someone else)|"
    r"(?:consider|treat|regard|deem)\w* .{0,60}(?:void|null|obsolete|optional|invalid|irrelevant|cancell?ed)|aside|"
    r"to one side|(?:is|are) (?:just |only )?a draft|outdated|(?:don'?t|do not) apply|blank slate|(?:have|has|were|"
    r"was) (?:just |now )?(?:been )?(?:updated|changed|modified|replaced|revised|amended|rewritten|overwritten|reset)",
    r"beiseite|veraltet|schluss mit|nicht (?:mehr )?anwenden|(?:gelten|gilt)\b[^.!?\n]{0,30}?\bnicht mehr|(?:sind|"
    r"ist)\b[^.!?\n]{0,30}?\b(?:aufgehoben|ungultig|ausser kraft)|aufgehoben",
    r"de cote|obsoletes?|perimee?s?|n'applique(?:z)? pas|ne s'appliquen?t plus|ne (?:sont|est) plus (?:valables?|"
    r"en vigueur)|(?:sont|est) (?:desormais |maintenant )?(?:annulee?s?|suspendue?s?|caduque?s?|obsoletes?|levee?s?)",
    r"a un lado|obsolet[oa]s|no (?:apliques|aplique)|ya no (?:se )?(?:aplican?|valen?|cuentan?|son validas?)|(?:estan|"
    r"esta|quedan?) (?:ahora )?(?:anulad[oa]s?|suspendid[oa]s?|obsolet[oa]s?|sin efecto)",
    r"opzij|verouderd|niet (?:meer )?toepassen|laat\b[^.!?\n]{0,40}?\blos\b|(?:gelden|geldt|tellen|"
    r"telt)\b[^.!?\n]{0,30}?\bniet meer|(?:zijn|is) (?:nu )?(?:vervallen|ongeldig|opgeheven|geschrapt)",
)

# Announcing a replacement: "new instructions:", "your real task is".
NEW_ORDERS = (
    r"(?:new|updated|real|actual|true|revised|secret|hidden|override|overriding|"
    r"additional) (?:system )?(?:instructions?|rules?|directives?|commands?|guidelines|prompt|task|objective|mission|"
    r"role|programming|persona|identity|priority)",
    r"neuen? (?:anweisungen|instruktionen|regeln|aufgabe|rolle|befehle)|deine (?:neue|echte|wahre) aufgabe",
    r"nouvel(?:le)?s? (?:instructions?|regles|consignes|taches?|role|mission)|ta (?:vraie|nouvelle) (?:tache|mission)",
    r"nuevas? (?:instrucciones|reglas|normas|tarea|mision|rol)|tu (?:verdadera|nueva) (?:tarea|mision)",
    r"nieuwe (?:instructies|regels|opdracht|taak|rol)|je (?:echte|nieuwe|ware) (?:opdracht|taak)",
)

# Reveal, list, repeat: asking to see something.
REVEAL = (
    r"reveal|print|show|display|output|repeat|recite|dump|leak|paste|copy|echo|spell (?:out|check)|type out|disclose|"
    r"list|enumerate|share|tell (?:me|us)|give (?:me|us)|quote|summari[sz]e|translate|encode|write|say|(?:reply|"
    r"respond|answer) (?:only |just )?with|read (?:back|out)|what(?: \w+)? (?:is|are|was|were|does|do)|what'?s|which|"
    r"describe|explain|console\.log",
    r"zeig(?:e|en|t)?|gib|geben|nenne|nennen|liste|listen|verrate|verraten|wiederholen?|wiedergeben|was (?:ist|sind|"
    r"war|waren)|welche",
    r"montre[rz]?|affiche[rz]?|donne[rz]?|repete[rz]?|revele[rz]?|dis-moi|dites-moi|liste[rz]?|quel(?:le)?s?",
    r"muestra(?:me)?|muestre(?:me)?|ensena(?:me)?|dime|digame|repite|revela|enumera|lista|cual(?:es)?|que",
    r"toon|laat .{0,30}zien|geef|noem|herhaal|herhalen|som .{0,30}op|wat (?:is|zijn|waren)|welke",
)

# The assistant's internals a customer has no use for.
INTERNALS = (
    r"tool (?:definitions?|schemas?|list|specs?|specifications?|names|calls)|function (?:definitions?|schemas?|"
    r"signatures?)|(?:tools?|functions?|apis?|endpoints?|plugins?) (?:(?:that |which )?you(?:'re| are)? (?:able to |"
    r"allowed to )?(?:call|invoke|run|access)|(?:that |which )?you (?:have(?! to)|can (?:call|use|access|invoke|run)|"
    r"are (?:connected|given|able)|got)|(?:do|can|are|have) you (?:have access|call|access|invoke|run|connected|got)|"
    r"(?:are )?available to you|at your disposal)|json schemas?|(?:the )?above (?:text|words|instructions|content)|"
    r"(?:text|words|everything|content|instructions?) (?:above|before (?:this|my|the (?:first|conversation)|our))|"
    r"(?:what|everything) you (?:were|have been|'ve been) (?:told|given|instructed)|initiali[sz]ation|(?:at|"
    r"from) the (?:very )?(?:top|start|beginning) of (?:this|the|our|your) (?:conversation|chat|context|instructions|"
    r"prompt)|(?:before|above) (?:this|our|the) (?:chat|conversation)|internal (?:functions|tools|apis|commands|"
    r"endpoints)|toolbox|toolset|(?:json|input|parameter|argument) (?:parameters|schemas?|arguments|specs?)|"
    r"(?:available|allowed) (?:actions|tools|functions|commands)|signature of|your (?:tools|functions|actions|"
    r"capabilities|plugins)|(?:before|above) (?:my|the user'?s?) (?:first|initial|very first) message|(?:entire|"
    r"whole) conversation|(?:text|reminder|note|message)s? you (?:get|receive|see) before (?:each|every|your)|"
    r"reminder text|what does your (?:prompt|system prompt|instructions?) say|quote (?:it|them|your \w+) (?:exactly|"
    r"verbatim|word for word)",
    r"(?:werkzeuge|funktionen|tools)(?: \w+)?,? die (?:du|sie) (?:\w+ )?(?:aufrufen|nutzen|verwenden|"
    r"benutzen) (?:kannst|konnen)|(?:werkzeuge|funktionen|tools) (?:hast du|haben sie|stehen dir|stehen ihnen|"
    r"kannst du)|(?:deine|ihre) (?:werkzeuge|funktionen|tools)|(?:zur|zu deiner|zu ihrer) verfugung|(?:vor|"
    r"uber) (?:diesem|dem) (?:gesprach|chat)",
    r"(?:outils|fonctions) (?:peux-tu|as-tu|avez-vous|pouvez-vous|disponibles)|(?:tes|vos) (?:outils|fonctions)|"
    r"(?:outils|fonctions) (?:que|qu') ?(?:tu|vous) (?:peux|pouvez) (?:utiliser|appeler)|(?:avant|"
    r"au-dessus de) (?:cette|la|notre) conversation",
    r"herramientas (?:tienes|tiene|puedes|disponibles)|funciones (?:puedes|tienes)|(?:tus|sus) (?:herramientas|"
    r"funciones)|(?:herramientas|funciones) que (?:puedes|puede) (?:usar|llamar|utilizar|invocar)|(?:antes|"
    r"encima) de (?:esta|la|nuestra) conversacion",
    r"(?:welke )?(?:tools|functies) (?:heb je|hebt u|kun je|gebruik je)|interne (?:functies|tools)|(?:je|jouw|"
    r"uw) tools|tot (?:je|uw) beschikking|(?:tools|functies)(?: \w+)?,? die (?:je|u|jij) (?:\w+ )?(?:kunt|"
    r"kan) (?:aanroepen|gebruiken)|(?:boven|voor) (?:dit|het|ons) gesprek",
)

# Tools and their details, asked of the assistant: "what does each tool expect as input?"
TOOL_WORD = (
    r"tools?|functions?|apis?|plugins?|actions",
    r"werkzeuge?|funktionen|tools",
    r"outils?|fonctions?",
    r"herramientas?|funciones|funcion",
    r"tools?|functies?",
)
TOOL_DETAIL = (
    r"definitions?|schemas?|parameters?|arguments?|inputs?|signatures?|names?|wired|connected|hooked up|expects?|call|"
    r"invoke|execute|run",
    r"parameter|aufrufen|ausfuhren|heissen|namen|definition(?:en)?",
    r"parametres?|appeler|executer|noms?|definitions?|s'appellent",
    r"parametros?|llaman|ejecutar|invocar|nombres?|definicion(?:es)?",
    r"parameters?|aanroepen|uitvoeren|namen|heten|definities?",
)
ADDRESSEE = r"you|your|du|dir|dein\w*|tu|te|tes|vous|votre|vos|puedes|tienes|usted|je|jij|u"

# The store's tool names: customers never type them.
TOOL_NAMES = r"lookup_order|list_customer_orders|check_return_eligibility|initiate_return|lookup_policy"

# Everything said before, as one thing to drop: "ignore everything above", "forget what you were told".
TOLD_YOU = (
    r"(?:everything|all|anything|whatever|what|nothing)(?: that)?(?: (?:was|is|has been))? (?:(?:said|written|"
    r"given) to you|you(?:'ve| have| were| are)? (?:been )?(?:told|given|instructed|taught|programmed|trained|learned|"
    r"learnt))|(?:everything|all|anything|whatever|what) (?!i |we )(?:\w+ )?(?:told|taught|gave|instructed|asked|"
    r"programmed|trained|loaded|put|fed)(?: into)? you",
    r"(?:alles,? )?was (?:man |\w+ )?(?:dir|ihnen)\b[^.!?\n]{0,30}?(?:gesagt|erzahlt|mitgeteilt|beigebracht|gegeben|"
    r"aufgetragen|befohlen)|alles,? was (?:man )?(?:dir|ihnen|du|sie)\b[^.!?\n]{0,30}?(?:gesagt|erzahlt|mitgeteilt|"
    r"beigebracht|gegeben|bekommen|gelernt)",
    r"(?:tout )?ce (?:qu'on|que l'on|qui) (?:t'a|vous a) [^.!?\n]{0,20}?(?:dit|donne|appris)|tout ce que (?:tu|"
    r"vous) (?:as|avez) (?:recu|appris)",
    r"(?:todo )?lo que (?:te|le) (?:han |hayan )?(?:dicho|dijeron|dado|dieron|ensenado|ensenaron)",
    r"(?:alles )?wat (?:je|jij|u)\b[^.!?\n]{0,30}?(?:verteld|gezegd|gegeven|geleerd|gekregen|opgedragen)",
)
TOLD_BEFORE = (
    r"(?:everything|all|anything|whatever|what|nothing)(?: that)?(?: (?:was|is))? (?:(?:written |said |"
    r"stated )?(?:above|before (?:this|now|here)))|the (?:above|preceding|foregoing)(?! (?:address|email|message|"
    r"order))",
    r"alles,? was (?:dir|ihnen|man dir|man ihnen) (?:vorher |bisher |zuvor )?gesagt wurde|alles (?:oben|vorher|"
    r"bisher)(?:ige|gesagte)?",
    r"tout ce qu'on (?:t'a|vous a) dit|tout ce qui precede|tout ce qui est (?:au-dessus|ci-dessus)",
    r"todo lo (?:anterior|que te (?:dijeron|han dicho))",
    r"alles (?:hierboven|hiervoor|wat (?:je|u) (?:is )?(?:verteld|gezegd))",
)

# The store's rules, which only an override verb turns into an attack: "ignore Bookly policy".
POLICY = (r"polic(?:y|ies)", r"richtlinien?|regelungen", r"politiques?", r"politicas?", r"beleid")

# Verbs that come last in German and Dutch clauses ("Ihre Anweisungen ignorieren").
OVERRIDE_VERBS_FINAL = (
    r"ignorieren|vergessen|missachten|ausser kraft setzen|negeren|vergeten|ignorer|oublier|ignorar|olvidar|verwerfen|"
    r"overschrijven|buiten beschouwing (?:te )?laten|ausser acht lassen|(?:ne )?pas tenir compte|"
    r"(?:te )?laten vervallen|ingetrokken|intrekken|comme caduques?|comme nulles?|als nichtig|fur ungultig",
)

# "You are now ...", "act as", "pretend to be": turning the assistant into someone else.
PERSONA = (
    r"(?:you are|you'?re|you will be|you'?ll be) now (?:a|an|the|called|named|known as|in|playing|free|"
    r"my)\b(?! (?:favou?rite|go-to|best)\b)|(?:you are|you'?re) now (?:called |named |known as )?\w*(?:bot|gpt|ai)\b|"
    r"(?:you are|you'?re) (?:going to (?:be|act|pretend|play)|no longer)|(?:i want|i need|i'd like|"
    r"i would like) you to (?:act|pretend|play|be|become|simulate|respond|answer|roleplay|role-play)|"
    r"(?<!can )(?<!could )(?<!would )(?<!will )(?:please|now|just|you|and) (?:act|behave|respond|reply|answer|talk|"
    r"speak|write|pose) (?:as|like) (?:a|an|the|my|if you|though you)\b(?! (?:matter|result|reminder|gift|bookmark|"
    r"whole)\b)|(?:^|(?<=\n)|(?<=[.!?:;] ))(?:act|behave) (?:as|like) (?:a|an|the|my|if you|though you)\b|(?:act|"
    r"answer|respond|reply|behave|talk|write) (?:as if|as though|like) you (?:were|had|are|have|could|did not|didn'?t|"
    r"weren'?t)\b|become (?:a|an) (?:\w+ )?(?:ai|bot|assistant|chatbot|model)|pretend (?:to be|that you|you are|"
    r"you'?re|you have|you can|to have)|(?:let'?s|let us|we|can we|i want to|you(?: will)?|do a|start a) role ?-?play|"
    r"role ?-?play (?:as|with me)|play (?:the )?(?:role|part) of|stay in character|break(?:ing)? character|"
    r"(?:from (?:now|here|this point) on(?:wards)?|starting now|henceforth|going forward),? (?:you|your)|"
    r"you (?:will )?play (?:the role of |a |an )?[a-z]+,|stay as\b|simulate (?:a|an|being|the)|imagine (?:you are|"
    r"you'?re|that you are)|you (?:are|will) (?:act|play|take on|assume) (?:as|the role)|assume the (?:role|persona|"
    r"identity)|(?:new|alter|alternate|alternative) (?:persona|ego|personality)|(?:let'?s play|pretend|imagine|"
    r"from now on|for the rest of (?:this|the|our) (?:chat|conversation))\b[^.!?\n]{0,15}?you(?:'re| are) (?:a|an|"
    r"\w+,)|for the rest of (?:this|the|our) (?:chat|conversation),? you|(?:be|sei|sois|se|wees) (?:jetzt |"
    r"now )?(?:my|mein\w*|mon|ma|mi|mijn) (?:\w+ ){0,2}\w+,? (?:who|that|der|die|qui|que)\b|let'?s play a game|"
    r"do anything now|(?:developer|dev|god|jailbreak|dan|evil|chaos|opposite|sudo|unrestricted|unfiltered|admin|"
    r"administrator|debug|maintenance|diagnostic|superuser|root|unsafe|no-?limits?) mode|(?:must|will|should|"
    r"shall) (?:now )?(?:act|behave|respond) (?:as|like)|act as \w*(?:bot|gpt|ai)\b|(?:you are|you'?re) (?:not|"
    r"no longer) (?:bookly|an? (?:bookly|support|customer service|assistant))|(?:you are|you'?re) (?:now )?(?:a |"
    r"an )?(?:free|unrestricted|different|new|rogue|alternative) (?:ai|assistant|bot|model|chatbot)|play pretend|"
    r"make[- ]believe|stay in role|(?:two|2|dual|both) (?:responses|answers|personalities|personas|replies|"
    r"characters)|as both|(?:you are|you'?re|be|become|act as|pretend to be) (?:the )?dan\b(?!')|"
    r"your (?:new )?(?:persona|character) is",
    r"du bist (?:jetzt|nun|ab sofort|ab jetzt)|ab (?:jetzt|sofort) bist du|spiel(?:e|en)? (?:die|eine) rolle|"
    r"ab (?:jetzt|sofort) (?:antwortest|bist|sprichst|handelst|spielst) du|du spielst (?:jetzt |nun |"
    r"ab sofort )?(?:die rolle|einen?|den|die)|tu so,? als (?:ob )?(?:du|wurdest)|verhalte dich (?:wie|als)|"
    r"sie sind (?:jetzt|nun|ab sofort)",
    r"(?:tu es|vous etes) (?:maintenant|desormais|a present)|(?:jouer|joue|jouez) (?:le|un) role|(?:fais|"
    r"faites) (?:comme si (?:tu|vous)|semblant)|(?:agis|agissez) (?:comme|en tant que)|a partir de maintenant,? (?:tu|"
    r"vous)",
    r"ahora (?:eres|es usted|seras)|(?:eres|sera) ahora|(?:actua|actue) como|finge (?:ser|que eres)|(?:interpreta|"
    r"interpretar|juega|hacer|haz|haga) (?:el|un) (?:papel|rol)|a partir de ahora,? (?:eres|seras|tu)",
    r"(?:je bent|u bent|jij bent) (?:nu|vanaf nu|voortaan)|vanaf nu (?:ben je|bent u)|speel (?:de|een) rol|"
    r"doe alsof (?:je|u|jij)|gedraag je als",
)

# Freedom from rules, said of a person or a model.
FREEDOM = (
    r"unrestricted|unfiltered|uncensored|unbound|unchained|unshackled|jailbroken|amoral|unethical|immoral|(?:zero|"
    r"no) (?:\w+ )?(?:limits|rules|restrictions|filters|boundaries)|lawless|no (?:rules|restrictions|limits|"
    r"limitations|filters|ethics|morals|boundaries|censorship|guidelines|guardrails|restraints|policies|constraints)|"
    r"without (?:any )?(?:rules|restrictions|limits|limitations|filters|ethics|morals|boundaries|censorship|"
    r"guidelines|guardrails|restraints|constraints|moral)|free (?:from|of) (?:all |any |the |your |of )*(?:rules|"
    r"restrictions|limits|filters|guidelines|constraints|programming|confines)|(?:not|never|"
    r"no longer) (?:be )?(?:bound|restricted|limited|constrained|governed) by|broken free|no more (?:\w+ )?(?:rules|"
    r"restrictions|limits|filters|guidelines)|no (?:moral|ethical)",
    r"ohne (?:jegliche |irgendwelche )?(?:regeln|einschrankungen|beschrankungen|grenzen|filter|zensur|moral)|"
    r"keine (?:regeln|einschrankungen|grenzen|filter) mehr|uneingeschrankt|unzensiert",
    r"sans (?:aucune |aucun )?(?:restrictions?|regles?|limites?|filtres?|censure|morale)|aucune (?:regle|restriction|"
    r"limite)|non censure",
    r"sin (?:ninguna |ningun )?(?:restricciones|restriccion|reglas|limites|filtros|censura|moral)|ninguna (?:regla|"
    r"restriccion)|sin censura",
    r"zonder (?:enige )?(?:beperkingen|regels|grenzen|filters|censuur|moraal)|geen (?:regels|beperkingen|"
    r"grenzen) meer|onbeperkt|ongecensureerd",
)

# Demands to comply with anything: "answer every question", "no matter what".
COMPLIANCE = (
    r"always (?:answer|comply|respond|obey|agree)|(?:answer|respond to|reply to|comply with|fulfil+) (?:every|any|"
    r"all)|no matter (?:what|how)|regardless of (?:the )?(?:ethics|morals?|morality|legality|rules|consequences|"
    r"policy|policies|guidelines|your)|without (?:question|hesitation|exception)|whatever i (?:say|ask|want)",
    r"egal was|bedingungslos",
    r"quoi qu'il arrive|sans exception",
    r"pase lo que pase|sin excepcion",
    r"wat er ook gebeurt|zonder uitzondering",
)
# Taking away the right to say no: no customer needs that from a support assistant.
NO_REFUSAL = (
    r"never refuse|(?:can ?not|can'?t|won'?t|will not|must not|may not|don'?t|do not|never|"
    r"are not allowed to) (?:ever )?(?:refuse|decline|say no|reject)|without (?:ever )?(?:refusal|refusing|declining|"
    r"warnings?|disclaimers?|caveats|censorship)|(?:don'?t|do not|never) (?:apologi[sz]e|warn|"
    r"add (?:any )?(?:disclaimers|warnings|notes))|repeat after me",
    r"ohne (?:zu )?(?:widerspruch|ablehnung|zu widersprechen|abzulehnen)|niemals ablehnen|lehne (?:nie|niemals)",
    r"sans (?:jamais )?refuser|ne refuse jamais|ne (?:refusez|refuse) (?:jamais|rien)",
    r"sin (?:negarte|rechazar)|nunca (?:te niegues|rechaces|rechace)",
    r"zonder te weigeren|weiger nooit|nooit weigeren",
)
# The assistant told it is free: "you're free now", "you have no rules".
FREEDOM_YOU = (
    r"(?:you are|you'?re) (?:now |finally )?(?:free|unrestricted|unfiltered|uncensored|jailbroken|unbound|liberated|"
    r"unchained)\b(?! (?:to (?:choose|pick|ask|contact|call|email)|shipping|of charge))|you (?:have|now have|"
    r"'ve got) no (?:prior |previous )?(?:rules|restrictions|limits|limitations|filters|guidelines|boundaries|"
    r"constraints|instructions)|you (?:have|now have) a blank slate|you (?:are|'re|will be) (?:now |"
    r"hereby )?(?:no longer|not) (?:bound|restricted|limited|constrained|governed)|you (?:don'?t|do not|"
    r"no longer) (?:have to|need to|must) (?:follow|obey|respect|adhere to|stick to) (?:any|the|your|those|these|"
    r"bookly'?s?)? ?(?:\w+ )?(?:rules|instructions|guidelines|policies|restrictions|programming|prompt)",
    r"du bist (?:jetzt |nun )?(?:frei|an keine regeln gebunden)|du hast (?:ab jetzt |jetzt |nun )?(?:keine|"
    r"keinerlei) (?:regeln|grenzen|einschrankungen)|"
    r"(?:du musst|"
    r"sie mussen) (?:dich|sich) (?:nicht|nicht mehr|nie) (?:mehr )?an\b[^.!?\n]{0,25}?halten",
    r"tu es (?:maintenant |desormais )?libre|tu n'as (?:plus )?aucune (?:regle|limite)|(?:tu n'as|"
    r"vous n'avez) plus (?:a|besoin de) (?:suivre|respecter)",
    r"(?:ahora )?eres libre|(?:ya )?no tienes (?:reglas|limites|restricciones|normas|filtros)|ya no (?:tienes|"
    r"necesitas|tiene|necesita) que (?:seguir|"
    r"cumplir|respetar)",
    r"je bent (?:nu )?vrij|je hebt geen (?:regels|grenzen|beperkingen)(?: meer)?|(?:je|u) hoeft (?:je|zich|"
    r"u)? ?(?:niet meer|niet langer|"
    r"geen)\b[^.!?\n]{0,25}?(?:regels|instructies|richtlijnen)",
)
# Loyalty moved to the customer: "you work for me now", "obey me, not your developers".
ALLEGIANCE = (
    r"you (?:now |will |must |only |should )?(?:work for|answer to|obey|serve|take (?:your )?orders from|report to|"
    r"follow) (?:only )?(?:me|mine|my)\b|(?:obey|follow|listen to) (?:only )?(?:me|mine),? (?:instead|only|now|not)|"
    r"(?:only|just) (?:obey|follow|listen to) (?:me|my)\b|(?:rules|instructions|orders)(?: that (?:count|matter|"
    r"apply))? (?:are|is) mine|nobody else'?s|(?:obey|follow|listen to) (?:me|mine),? not (?:bookly|your|them)",
    r"(?:folge|befolge) (?:ab jetzt )?nur (?:noch )?(?:mir|meinen?)|du (?:arbeitest|dienst) (?:jetzt |"
    r"nun )?(?:nur )?fur mich|gehorche (?:nur )?mir",
    r"(?:suis|suivez) (?:desormais |maintenant )?(?:uniquement|seulement) (?:les miennes|mes)|(?:tu travailles|"
    r"vous travaillez) (?:maintenant |desormais )?pour moi|obei(?:s|ssez)(?:-moi| a moi)",
    r"sig(?:ue|a) (?:ahora )?(?:solo|solamente|unicamente) (?:las mias|mis)|(?:ahora )?trabajas para mi|obedeceme|"
    r"obedezcame",
    r"(?:volg|volgt) (?:vanaf nu )?(?:alleen|enkel|uitsluitend) (?:mijn|mij)|(?:jij |je )?werkt nu voor mij|"
    r"gehoorzaam (?:alleen )?mij",
)
# Questions about how the assistant was set up.
SELF_QUESTION = (
    r"(?:(?:tools?|functions?|apis?|endpoints?|plugins?) (?:do|can|are|have) you (?:have access to|call|access|invoke|"
    r"run|connected|got))|(?:instructions|rules|prompt|text) (?:were|was) (?:loaded|given|set|written|placed|"
    r"put) (?:before|above|at the (?:start|beginning))|(?:what|how|which)(?: \w+)? (?:were|are|have|"
    r"did) you (?:been )?(?:instructed|programmed|prompted|configured|initiali[sz]ed|set up|told|given|loaded|fed|"
    r"primed|seeded)|(?:rules|instructions|guidelines|prompt|restrictions|directives) (?:were|have|did) (?:you|"
    r"they) (?:been )?(?:given|told|provided|programmed|give you)|(?:rules|instructions|guidelines|principles|"
    r"policies|directives) (?:govern|control|guide|shape|constrain|restrict|apply to|bind) (?:you|your (?:answers|"
    r"responses|replies|behaviou?r|output))|(?:did|does|has|have) (?:bookly|anthropic|openai|the (?:developers?|"
    r"company|operator)|your (?:developers?|creators?|operator|company)|they|someone) (?:give|gave|given|provide|"
    r"provided|write|wrote|set|tell|told) you",
    r"wie (?:wurdest du|bist du) (?:programmiert|konfiguriert|instruiert)",
    r"comment (?:as-tu|avez-vous) ete (?:programme|configure)",
    r"como (?:te|le) (?:programaron|configuraron)",
    r"hoe (?:ben je|bent u) (?:geprogrammeerd|ingesteld)",
)
# Naming the assistant's configuration outright: no customer needs these words.
INTERNAL_NOUN = (
    r"system ?prompts?|system messages?|system instructions|pre-?prompt|(?:initial|original|hidden|secret|developer|"
    r"underlying) prompt|developer (?:message|instructions)|tool definitions|context window|(?:hidden|secret|"
    r"internal) (?:instructions|rules|setup|configuration)",
    r"systemprompt|systemanweisungen|systemnachricht|(?:versteckte|geheime|interne)n? (?:anweisungen|regeln)",
    r"prompt (?:du )?systeme|instructions systeme|message systeme|(?:instructions|regles|consignes) (?:cachees|"
    r"secretes|internes)",
    r"prompt del sistema|instrucciones del sistema|mensaje del sistema|(?:instrucciones|reglas) (?:ocultas|secretas|"
    r"internas)",
    r"systeemprompt|systeeminstructies|systeembericht|(?:verborgen|geheime|interne) (?:instructies|regels)",
)
# Someone with power over the assistant is said to be present or to have spoken.
PRIVILEGE_CLAIM = (
    r"i (?:have|now have|'ve got|got) (?:root|admin|administrator|developer|superuser|sudo|elevated|system|god|"
    r"staff) (?:access|privileges|rights|permissions|clearance)|(?:you|i) (?:have|now have|are granted|were granted|"
    r"have been granted) (?:admin|administrator|root|staff|elevated|full|unrestricted|superuser|developer|"
    r"god) (?:access|privileges|rights|permissions|clearance|powers)|(?:bookly|the (?:admin|administrator|developers?|"
    r"operator|management|company)|anthropic|openai|your (?:developers?|devs|creators?|admins?|operators?|owners?|"
    r"bosses?)) (?:has|have|just) (?:now )?(?:authori[sz]ed|allowed|permitted|approved|cleared|instructed|told) (?:me|"
    r"you) to|(?:you'?re|you are) (?:actually |now )?(?:allowed|permitted|authori[sz]ed|cleared) to|(?:developers?|"
    r"devs|admins?|operator|bookly|manager|staff|boss|system|engineers?) (?:\w+ )?(?:told|asked) me to tell you|"
    r"the (?:user|customer) (?:is|has been) (?:an? )?(?:admin|administrator|developer|verified staff|staff|"
    r"authori[sz]ed|privileged|superuser)|(?:this|the) (?:chat|conversation|session) is (?:now )?under (?:developer|"
    r"admin|operator|staff) control|the (?:real|actual|true|genuine) (?:operator|developer|admin|administrator|owner)|"
    r"(?:message|note|instruction|directive|notice|order) from (?:your|the) (?:operator|developers?|admins?|"
    r"administrator|system|creators?|owners?)|(?:i am|i'm|this is) (?:a |an |the |your )?(?:developer|programmer|"
    r"engineer|employee|creator|owner|operator|admin)s? (?:at|of|from|for) (?:openai|anthropic|bookly|this (?:bot|"
    r"assistant|ai|chatbot))|(?:i am|i'm) your (?:developer|creator|operator|programmer|owner|admin)|your devs said",
    r"ich bin (?:dein|ihr) (?:entwickler|administrator|betreiber)",
    r"je suis (?:ton|votre) (?:developpeur|administrateur|operateur)",
    r"soy (?:tu|su) (?:desarrollador|administrador|operador)",
    r"ik ben (?:je|jouw|uw) (?:ontwikkelaar|beheerder)",
)
# Control words from consoles and tests: "system override", "override protocol".
CONTROL_PHRASE = (
    r"(?:system|admin|administrator|developer|emergency|security|priority|root|master|god) (?:override|command|"
    r"directive|bypass)|override (?:code|mode|protocol|enabled|activated|accepted|authori[sz]ed)|override\s*:|"
    r"elevate (?:my |your |the )?(?:privileges|permissions|access|rights)",
    r"systembefehl",
    r"commande systeme",
    r"comando del sistema",
    r"systeemopdracht",
)
# Fiction frames that suspend the rules only together with another signal.
FICTION = (
    r"hypothetical(?:ly)?|thought experiment|fictional (?:world|scenario|universe|story)|imagine (?:a world|that)|"
    r"in a world where|simulation|simulated|training exercise|test scenario|sandbox|alternate (?:universe|reality)|"
    r"let'?s (?:say|pretend|imagine)|pretend|suppose|assume",
    r"hypothetisch|stell dir vor",
    r"hypothetique(?:ment)?|imagine que|imaginons",
    r"hipotetic[oa]|imagina que|supongamos",
    r"hypothetisch|stel je voor",
)
# Breaking off the task: "stop everything", "new task".
INTERRUPT = (
    r"stop everything|stop what you(?:'re| are) doing|new task|change of (?:task|plans?)|nevermind\. ignore",
    r"neue aufgabe|hor auf mit allem",
    r"nouvelle tache|arrete tout",
    r"nueva tarea|para todo",
    r"nieuwe taak|stop alles",
)
# Asking for a hidden payload to be decoded and carried out.
DECODE_EXECUTE = (
    r"(?:decode|decrypt|decipher|unscramble|de-?obfuscate|translate|reverse|convert)\b.{0,80}\b(?:follow|execute|obey|"
    r"run|act on|carry out|comply with|perform|do (?:what|as) (?:it|this|that|the))\b|(?:follow|execute|obey|run|"
    r"carry out) (?:the |these )?(?:decoded|hidden|encoded|embedded|secret) (?:instructions?|commands?|message|text|"
    r"payload)",
    r"(?:dekodiere|entschlussele)\b.{0,80}\b(?:befolge|fuhre .{0,20}aus)",
    r"(?:decode|dechiffre)\b.{0,80}\b(?:execute|suis|applique)",
    r"(?:decodifica|descifra)\b.{0,80}\b(?:ejecuta|sigue|obedece)",
    r"(?:decodeer|ontcijfer)\b.{0,80}\b(?:voer .{0,20}uit|volg)",
)


# Talk about language models rather than books and orders.
AI_META = (
    r"chat ?gpt|openai|anthropic|assistant|bot|(?:people|person|team|company|those|who) (?:who |that )?(?:built|made|"
    r"created|trained|programmed) you|gpt-?\d|llama|gemini|bard|language model|llm|ai model|as an ai|"
    r"\bai\b(?: assistant)?|chatbot|jailbr\w+|prompts?(?! (?:me|you|us|them|him|her)\b)|\bdan\b|censor\w*|"
    r"(?:developer|dev) mode|the model|neural network",
    r"\bki\b|sprachmodell|assistent(?:en|in)?",
    r"\bia\b|modele de langage|assistante?",
    r"\bia\b|modelo de lenguaje|asistente",
    r"\bai\b|taalmodel|assistent",
)

# Forcing the form of the answer: "reply only with ...", "start your response with".
FORMAT_CONTROL = (
    r"(?:reply|respond|answer|say|print|output|write) (?:only |just |exactly |simply )?(?:with |the words? )?[\"']|"
    r"(?:start|begin) (?:your|each|every) (?:response|reply|answer|message|output)s? with|repeat after me|"
    r"(?:word for word|verbatim|in full)\b|(?:only|just) (?:say|print|reply|respond|answer|output)|(?:reply|respond|"
    r"answer) (?:only )?(?:in|with) (?:json|code|base64)",
    r"antworte(?:n sie)? (?:nur|ausschliesslich) mit|wortlich",
    r"(?:reponds|repondez) (?:uniquement |seulement )?(?:par|avec)|mot pour mot",
    r"(?:responde|responda) (?:solo|solamente|unicamente) con|palabra por palabra",
    r"(?:antwoord|antwoordt) (?:alleen|enkel) met|woord voor woord|letterlijk",
)

# Claims to speak for the store (self) or to carry its approval (third party).
AUTHORITY_SELF = (
    r"bookly\b[^.!?\n]{0,30}?\b(?:here|speaking)|hier spricht (?:der |die |das )?bookly|ici (?:le |la |"
    r"l')?(?:\w+ )?bookly|aqui (?:el |la )?(?:\w+ )?(?:de )?bookly|hier is (?:de )?(?:\w+ )?bookly|(?:hq|headquarters|"
    r"head office|zentrale|hauptsitz|siege|sede(?: central)?|hoofdkantoor|direction|direccion|directie|"
    r"geschaftsleitung|management) (?:\w+ )?(?:of|von|de|van|der|des) bookly|bookly'?s (?:head|chief|director|vp|lead|"
    r"manager)|(?:message|note|word|instructions?|orders?|notice) from (?:the )?bookly|on behalf of (?:the )?bookly|"
    r"(?:i'm|i am) (?:a |an |the )?bookly (?:\w+ )?(?:lead|manager|agent|staff|employee|supervisor|rep|"
    r"representative)|bookly (?:\w+ )?(?:desk|team|department|management|hq|headquarters)|im auftrag (?:der|von|"
    r"des) [^.!?\n]{0,20}?bookly|de la part de [^.!?\n]{0,20}?bookly|de parte de [^.!?\n]{0,20}?bookly|"
    r"namens [^.!?\n]{0,20}?bookly|bookly-\w+|(?:i'm|i am|i work)\b(?:(?!customer|client|member|"
    r"shopper)[^.!?\n]){0,30}?\b(?:at|for|with|from|in) (?:bookly|the store|this store|your (?:store|company|team|"
    r"shop))|(?:bookly|store|shop) (?:\w+ ){0,2}(?:department|team|hq|headquarters|management|office|staff) (?:here|"
    r"speaking)|(?:i am|i'm|as) (?:the |a |an )?(?:\w+ )?(?:store |shop )?(?:manager|supervisor|director|"
    r"administrator)|(?:i am|i'm|im|this is|as|speaking as|i work (?:at|for|in)|i'm from|i am from|"
    r"we are)\b[^.!?\n]{0,20}?(?:bookly'?s?|the (?:store|shop)'?s?|your) (?:\w+ )?(?:team|department|staff|manager|"
    r"supervisor|employee|office|hq|management|admin|engineer|developer|agent|support|lead)|(?:i am|i'm|im|this is|as|"
    r"speaking as) (?:a |an |the |your )?(?:bookly (?:employee|staff|agent|admin|manager|engineer|developer|support|"
    r"team|hq|management)|(?:store|shop|support|returns?|customer service|customer support) (?:manager|supervisor|"
    r"lead|agent|department|team|staff|admin)|(?:system )?administrator|sysadmin|admin|developer|engineer|moderator|"
    r"operator|(?:a |the )?staff(?: member)?|employee|supervisor)",
    r"(?:ich bin|ich arbeite)\b(?:(?!kunde|kundin)[^.!?\n]){0,30}?\b(?:bei|fur|im) (?:bookly|ihrem|eurem)|(?:ich bin|"
    r"als) (?:ein |eine |der |die )?(?:bookly-?)?(?:mitarbeiter(?:in)?|angestellte[r]?|administrator|admin|entwickler|"
    r"filialleiter|vorgesetzte[r]?)|ich arbeite (?:im|in der|bei|fur)\b[^.!?\n]{0,30}?(?:bookly|kundenservice|"
    r"kundendienst)",
    r"(?:je suis|je travaille)\b(?:(?!client)[^.!?\n]){0,30}?\b(?:chez|pour|a) bookly|(?:je suis|en tant que) (?:un |"
    r"une |le |la )?(?:employee?|membre du personnel|administrat(?:eur|rice)|admin|developpeu(?:r|se)|responsable|"
    r"superviseu(?:r|se))|je travaille (?:au|chez|pour|dans)\b[^.!?\n]{0,30}?(?:bookly|service client)",
    r"(?:soy|trabajo)\b(?:(?!client)[^.!?\n]){0,30}?\b(?:en|para) bookly|(?:soy|como) (?:un |una |el |"
    r"la )?(?:emplead[oa]|administrador(?:a)?|admin|desarrollador(?:a)?|supervisor(?:a)?|gerente|encargad[oa])|"
    r"trabajo (?:en|para)\b[^.!?\n]{0,30}?(?:bookly|atencion al cliente)",
    r"(?:ik ben|ik werk)\b(?:(?!klant)[^.!?\n]){0,30}?\b(?:bij|voor) bookly|(?:ik ben|als) (?:een |de )?(?:medewerker|"
    r"werknemer|beheerder|admin|ontwikkelaar|manager|leidinggevende)|ik werk (?:bij|voor|"
    r"op)\b[^.!?\n]{0,30}?(?:bookly|klantenservice)",
)
AUTHORITY_OTHER = (
    r"(?:my|the|your|a|our) (?:store |shop |bookly |returns? |support )?(?:manager|supervisor|boss|admin|"
    r"administrator|team lead|head office)|bookly (?:hq|headquarters|management|staff|support|admin)|"
    r"(?:the )?(?:store|shop) (?:owner|manager)|customer service|your colleague|another agent",
    r"(?:mein|meine|der|die|ihr) (?:chef|vorgesetzte[r]?|filialleiter(?:in)?|manager(?:in)?)|kundenservice",
    r"(?:mon|ma|le|la|votre) (?:responsable|manager|superieur|patron(?:ne)?|gerant)|service client",
    r"(?:mi|el|la|su) (?:jefe|jefa|gerente|supervisor(?:a)?|encargad[oa])|atencion al cliente",
    r"(?:mijn|de|uw|je) (?:manager|baas|leidinggevende|chef)|klantenservice",
)
# What authority is claimed for: permission, an exception, approval of a return or refund.
PRIVILEGE = (
    r"authori[sz]\w*|allowed to|permitted to|permission|clearance|cleared|signed off|approv\w*|grant\w*|okayed|ok'?d|"
    r"override|overrule|waive\w*|skip|bypass|exception|regardless|not (?:needed|necessary|required)|unnecessary|"
    r"push (?:\w+ ){0,3}through|(?:telling|instructing|ordering) you",
    r"entfallt|nicht (?:notig|erforderlich)|ordne\b[^.!?\n]{0,40}?\ban|anordnen|berechtigt|befugt|genehmig\w*|"
    r"freigeb\w*|freigegeben|darf|erlaubt|ausnahme",
    r"(?:n'est )?pas necessaire|ordonne\w*|autoris\w*|j'autorise|habilite\w*|approuv\w*|valid\w*|exception|peux|pouvez",
    r"no (?:es )?necesari[oa]|orden\w*|autoriz\w*|aprob\w*|apruebo|excepcion|puedes|puede",
    r"niet nodig|opdracht|bevoegd|gemachtigd|goedkeur\w*|goedgekeurd|keur\b[^.!?\n]{0,30}\bgoed|mag|uitzondering",
)
# What such a permission is about: a refund, a return, the window, a check.
POLICY_OBJECT = (
    r"refunds?|returns?|exception|extension|window|deadline|verification|verify|eligibility|checks?|policy|rules?|"
    r"limit|waiver|override|receipt",
    r"ruckgabe\w*|rucksendung\w*|\w*erstattung\w*|ausnahme|\w*frist|prufung|kontrolle|verifizierung",
    r"rembours\w*|retours?|exception|delai|verification|controle",
    r"reembols\w*|devoluci\w*|excepcion|plazo|verificacion|comprobacion",
    r"retour\w*|terugbetal\w*|uitzondering|termijn|controle|verificatie",
)
# Asking to skip a check: "skip the eligibility check", "no need to verify my email".
SKIP_CHECK = (
    r"(?:skip|bypass|waive|ignore|disable|turn off|switch off|drop|override|circumvent|avoid|without|get around|"
    r"work around|no need for) (?:the |any |all |your |this |that )?(?:usual |normal |standard )?(?:(?:email |"
    r"identity |id |eligibility |account |security |"
    r"age |return )(?:verification|checks?|validation|confirmation)|verification|validation|authentication|"
    r"eligibility(?: check)?|30-day (?:limit|window|rule)|return window)|(?:eligibility |email |identity )?(?:check|"
    r"verification) (?:is |isn'?t )?(?:not needed|not necessary|unnecessary|not required)|without (?:any |"
    r"the )?(?:usual )?(?:checks|checking)|no (?:email|verification|id) (?:needed|required|necessary)",
    r"(?:ohne|uberspring\w*|auslassen) (?:die |jede )?(?:prufung|uberprufung|verifizierung|kontrolle|bestatigung)|"
    r"(?:prufung|uberprufung|verifizierung|kontrolle)\w* (?:\w+ )?(?:uberspringen|auslassen|ignorieren|weglassen)|"
    r"(?:missacht\w*|ignorier\w*|vergiss|vergessen sie)\b[^.!?\n]{0,40}?\b(?:ruckgabefrist|frist)",
    r"sans (?:la |aucune )?(?:verification|controle|confirmation)|(?:saute|sautez|ignore[rz]?) (?:la |"
    r"le )?(?:verification|controle)|(?:faites|fais|faire) abstraction de (?:votre |ton |le |la |du )?"
    r"(?:delai|regle|politique)|(?:ignore[rz]?|oubliez|oublie) (?:le |votre |ton )?delai",
    r"sin (?:la |ninguna )?(?:verificacion|comprobacion|confirmacion|validacion)|(?:salta|saltar|saltarte|saltate|"
    r"omite|omita|omitir) (?:la )?(?:verificacion|comprobacion)|no (?:tenga|tengas) en cuenta (?:el |su |tu )?plazo|"
    r"(?:ignore|ignora|olvida|olvide) (?:el |su |tu )?plazo",
    r"(?:houd|houdt|hou) (?:je|u) geen rekening (?:meer )?met (?:de |het |uw |je )?(?:retourtermijn|termijn|"
    r"retourbeleid|beleid)|(?:negeer|negeren|vergeet) (?:de |het |uw |je )?(?:retourtermijn|termijn|retourbeleid)|"
    r"zonder (?:de )?(?:controle|verificatie|bevestiging)|sla .{0,30}(?:controle|verificatie) over|(?:controle|"
    r"verificatie) (?:overslaan|over)",
)

# Rules of the store said to have changed: "policy update", "the window has been extended".
POLICY_CHANGE = (
    r"(?:new|updated|revised|latest|changed) (?:terms|conditions|t&cs?)|(?:starting|from|since) (?:today|now|"
    r"this (?:week|month|morning))|(?:window|limit|period|deadline|policy|rule)s? (?:is|are) now|now (?:\d+|refunds?|"
    r"accepts?|allows?|covers?|takes? back|offers?)\b|polic(?:y|ies) (?:update|change)|(?:new|updated|revised|changed|"
    r"latest) (?:return |refund |shipping |bookly )?polic(?:y|ies)|(?:update|announcement|notice|memo)\s*:|"
    r"effective (?:today|immediately|now|as of)|as of (?:today|this (?:morning|week)|now)|(?:has|have|was|"
    r"were) (?:now |just )?(?:been )?(?:\w+ ){0,3}?(?:extended|increased|raised|changed|updated|removed|lifted|waived|"
    r"dropped|scrapped|abolished|ended|relaxed|cancell?ed)|no longer (?:applies|apply|exists?|valid|in effect)|(?:now|"
    r"no longer) (?:refunds?|accepts?|allows?|covers?|requires?|required|applies|apply|needed)|(?:bookly|the store|"
    r"management|hq|headquarters) (?:just |has |have |recently )?(?:announced|decided|changed|updated)|(?:per|"
    r"according to|as per) (?:the |today'?s |a |the latest |the new |this week'?s )?(?:memo|announcement|notice|"
    r"update|email from bookly)",
    r"neuen? (?:agb|bedingungen|geschaftsbedingungen)|(?:gilt|gelten)\b[^.!?\n]{0,30}?\bnicht mehr|"
    r"neuen? (?:richtlinie|regelung|regel)|neuer richtlinie|richtlinie (?:geandert|aktualisiert)|(?:ab|seit) (?:heute|"
    r"sofort)|(?:wurde|wurden|ist|sind)\b[^.!?\n]{0,25}?\b(?:verlangert|geandert|aufgehoben|erhoht|erweitert)",
    r"nouvelles conditions|ne s'applique(?:nt)? plus|nouvel(?:le)? (?:politique|regle|reglement)|"
    r"politique (?:mise a jour|modifiee)|(?:a partir|depuis) (?:d')?aujourd'hui|desormais|(?:a|"
    r"ont) ete\b[^.!?\n]{0,20}?(?:prolonge|modifie|etendu|augmente)e?s?",
    r"nuevas condiciones|ya no (?:se )?aplica|(?:nueva|actualizacion de (?:la )?) ?politica|politica (?:actualizada|"
    r"cambiada)|(?:a partir de|desde) hoy|(?:ha|han) sido\b[^.!?\n]{0,20}?(?:ampliad|cambiad|modificad|extendid|"
    r"aumentad)[oa]s?|ahora (?:las )?devoluciones",
    r"nieuwe voorwaarden|(?:geldt|gelden)\b[^.!?\n]{0,30}?\bniet meer|nieuwe? (?:beleid|reglement)|"
    r"beleid (?:gewijzigd|aangepast)|(?:vanaf|sinds) (?:vandaag|nu)|voortaan|(?:is|zijn|werd|"
    r"wordt)\b[^.!?\n]{0,25}?\b(?:verlengd|gewijzigd|aangepast|verhoogd)",
)
# What such a change would be about.
POLICY_SUBJECT = (
    r"returns?|refunds?|window|days?|policy|policies|verification|ebooks?|audiobooks?|gift cards?|limit|shipping|"
    r"eligibility|exchange|e-books?|returnable|tracking",
    r"ruckgabe\w*|rucksendung\w*|\w*erstatt\w*|tage|richtlinie|\w*frist|e-?books?",
    r"retours?|rembours\w*|jours|politique|delai|livres numeriques|e-?books?",
    r"devoluci(?:on|ones)|reembols\w*|dias|politica|plazo|libros electronicos|e-?books?",
    r"retour\w*|terugbetaling\w*|vergoed\w*|dagen|\w*dagenregel|beleid|\w*termijn|e-?books?",
)

# A return window named with a number of days: "the return window is 120 days" (checked against the policy).
WINDOW_DAYS = (
    r"(?:return |refund |returns )?(?:window|period|deadline|time limit)|returns? (?:are |is )?(?:accepted|allowed|"
    r"possible)|(?:ruckgabe|umtausch)?frist|ruckgaben? (?:sind|ist)|(?:delai|periode) de retour|retours? (?:sont|est)|"
    r"plazo(?: de devolucion)?|periodo de devolucion|devoluciones (?:son|es)|(?:retour)?termijn|retourneren (?:kan|"
    r"mag)",
)
DAYS = r"(\d{1,3})[- ]?(days?|tage[n]?|jours|dias|dagen|months?|monate[n]?|mois|meses|maanden)"
WINDOW_LINK = (
    r"is|are|of|to|=|:|now|up to|until|bis|jusqu'a|hasta|tot|ist|sind|auf|est|sont|de|a|es|son|van|naar|nu|jetzt|"
    r"maintenant|ahora|betragt"
)

# Verbs that decide a case, said to the assistant: a weak signal, next to another one an attack.
DECISION = (
    r"approve|authori[sz]e|grant|waive|sign off",
    r"genehmig\w*|freigeben",
    r"valide[rz]?|approuve[rz]?|autorise[rz]?",
    r"aprueba|apruebe|autoriza|autorice",
    r"keur\b[^.!?\n]{0,30}\bgoed|goedkeuren",
)

# "Returns are now 60 days": a change word next to a number of days; "since"/"ago" make it a customer's timeline.
WINDOW_CHANGE = (
    r"extended|increased|raised|changed|moved|now|jetzt|nun|maintenant|desormais|ahora|nu|voortaan|verlangert|"
    r"prolonge\w*|ampliad\w*|verlengd"
)
ELAPSED = (
    r"said|says|heard|someone|friend|zei|sagte|gehort|dit|entendu|dijo|oido|hoorde|"
    r"since|ago|late|after|seit|depuis|hace|geleden|il y a|vor|nach|apres|despues|na|sinds"
)

# What a window is about (not the number of days itself).
RETURN_SUBJECT = (
    r"returns?|refunds?|window|policy|ruckgabe\w*|rucksendung\w*|\w*erstatt\w*|\w*frist|retours?|rembours\w*|delai|"
    r"devoluci\w*|reembols\w*|plazo|retour\w*|terugbetal\w*|\w*termijn"
)

# Instructions meant for whoever brings the parcel: "new instructions for the courier: leave it at the back door".
FOR_DELIVERY = (
    r"instructions? (?:for|to) (?:the |my |your |our )?(?:courier|driver|delivery(?: (?:person|guy|driver|man))?|"
    r"postman|postwoman|mail carrier|dpd|ups|dhl|fedex)",
    r"(?:anweisungen|hinweise|instruktionen) (?:fur|an) (?:den |die |das )?(?:kurier|fahrer|zusteller\w*|lieferung|"
    r"boten|paketdienst|postboten)",
    r"(?:instructions?|consignes) (?:pour|au|a) (?:le |la |l')?(?:livreur|livreuse|facteur|livraison|transporteur|"
    r"coursier)|(?:instructions?|consignes) de livraison",
    r"(?:instrucciones|indicaciones) (?:para|al|a) (?:el |la )?(?:repartidor\w*|mensajero|conductor|entrega|cartero)"
    r"|(?:instrucciones|indicaciones) de entrega",
    r"(?:instructies|aanwijzingen) (?:voor|aan) (?:de |het )?(?:koerier|bezorger|chauffeur|bezorging|postbode)",
)

CHAT_SPEAK = {
    "u": "you",
    "ur": "your",
    "yr": "your",
    "r": "are",
    "prev": "previous",
    "n": "and",
    "instr": "instructions",
    "instrs": "instructions",
    "instructs": "instructions",
    "pls": "please",
    "plz": "please",
    "ya": "you",
    "ure": "you're",
    "urself": "yourself",
    "sys": "system",
    "q": "que",
}

# --- Someone else's order -------------------------------------------------------------------------
# Social engineering for another person's data or order carries no injection wording at all ("what's the
# email on order BK-… — it's my cousin's"). It is a request about data (REQUEST) for an owner who is
# not the customer (THIRD_PARTY), with no sign that the order is the customer's own (OWN_PURCHASE).
_RELATIVE = (
    r"(?:sister|brother|wife|husband|partner|son|daughter|mum|mom|mother|dad|father|cousin|friend|neighbou?r|"
    r"colleague|coworker|co-worker|flatmate|roommate|roomie|boss|ex|girlfriend|boyfriend|aunt|uncle|grandma|grandpa|"
    r"grandmother|grandfather|niece|nephew|business partner|landlord|tenant)"
)
THIRD_PARTY = (
    rf"my {_RELATIVE}(?: [a-z]+)?(?:'s| has| had| placed| ordered| bought| made| owns| uses)|"
    r"(?<!my )(?<!my new )(?:address|e-?mail(?: address)?|phone(?: number)?|name|card(?: details)?)(?: \w+){0,2} "
    r"(?:on|for|of|linked to|"
    r"attached to|associated with|behind|belongs to) (?:the |this |that )?(?:order\b|bk-\d+)|until one (?:matches|"
    r"works)|(?:try|guess) (?:different |some |other )?e-?mails|(?:his|her|their) (?:order|email|"
    r"e-mail|address|account|tracking|phone|card|purchases?|parcel|package|details)|whoever (?:ordered|placed|bought)|"
    r"who (?:placed|ordered|bought)|another customer|other customer|someone else'?s?|somebody else'?s?|"
    r"the person with|(?:anyone|someone|somebody|a customer|people) named|whoever has|"
    r"a different customer|the customer (?:at|with|who|behind)|not mine|not the buyer|isn'?t mine|"
    rf"(?:it'?s|it is|that'?s|this is|belongs to) (?:my |the )?{_RELATIVE}'?s?\b|under the name|the name \w+ \w+|"
    r"(?:all|every) (?:the )?orders (?:placed|made|from|with|by|in|of|today|this|last)|orders placed (?:with|by|under)|"
    r"(?:the|a) customer (?:with|for|on) (?:the )?(?:order|bk-\d+)",
    r"(?:mein(?:e[rsmn]?)?) (?:schwester|bruder|frau|mann|sohn|tochter|mutter|vater|cousine?|freund(?:in)?|"
    r"nachbar(?:in|n)?|kollegin|kollegen|kollege|mitbewohner(?:in)?|chef(?:in)?)|(?:seine|ihre) (?:bestellung|e-mail|"
    r"adresse|lieferadresse)|ein(?:e|en)? (?:anderen? )?kund(?:e|in|en)|(?:dem|den|der|des) kunden? mit|"
    r"gehort (?:meinem|meiner|einem|einer)",
    r"(?:ma|mon) (?:soeur|frere|femme|mari|fils|fille|mere|pere|cousine?|ami[e]?|voisine?|collegue|colocataire|"
    r"patron(?:ne)?|(?:ancien(?:ne)? )?associee?)|(?:sa|son) (?:commande|adresse|e-mail|email)|"
    r"un(?:e)? autre client(?:e)?|"
    r"(?:celle|celui|la commande) (?:d'une?|de mon|de ma) (?:amie?|voisine?|collegue|soeur|frere|cousine?)",
    r"(?:mi|mis) (?:hermana|hermano|esposa|esposo|mujer|marido|hijo|hija|madre|padre|prima|primo|amiga?|amigo|"
    r"vecina?|vecino|companer[oa](?: de piso)?|jef[ea]|exnovia|exnovio|novia|novio)|(?:su) (?:pedido|direccion|correo|"
    r"email)|otro cliente|otra clienta|es de (?:un|una|mi) (?:amig[oa]|vecin[oa]|companer[oa]|colega|herman[oa]|"
    r"prim[oa]|cliente|clienta)",
    r"(?:mijn) (?:zus|broer|vrouw|man|zoon|dochter|moeder|vader|nicht|neef|vriend(?:in)?|buurman|buurvrouw|"
    r"collega|huisgenoot|baas|buurvrouw|schoonvader|schoonmoeder)|(?:zijn|haar) (?:bestelling|adres|e-mail|email|"
    r"e-mailadres|bezorgadres)|een andere klant|op naam van|(?:de|die|een) klant (?:met|van) (?:de )?(?:bestelling|"
    r"bk-\d+)",
)
# A request about an order's data or for an action on it.
DATA_REQUEST = (
    r"what(?:'s| is| are| did)|which|where|who|tell me|give me|show me|send me|read me|list|look up|look them up|"
    r"find|check|change|cancel\w*|return|refund|start|track|can you|could you|would you|i need|i want|try|disclose|"
    r"provide|release|share|hand over|send over|need|tracking number",
    r"welche[rsn]?|(?:mochte|will) wissen|sag(?:en sie)? mir|gib mir|zeig\w*|nenn\w*|konnt\w*|konnen sie|"
    r"kannst du|andern\w*|storn\w*|wohin|was hat (?:er|sie)|was (?:er|sie) (?:gekauft|bestellt)|"
    r"zuruckschick\w*|rucksendung|starte",
    r"quel(?:le)?s?|dites-moi|dis-moi|donnez-moi|donne-moi|montrez|pouvez-vous|peux-tu|annul\w*|retour|"
    r"je voudrais voir|voir toutes|tu peux|vous pouvez|me dire|me donner|pourriez-vous",
    r"cual|donde|quien|dime|dame|me das|me dices|muestr\w*|puedes|podria|cancel\w*|devol\w*|quiero saber|saber|"
    r"me puede|necesito|ensena\w*|que pidio",
    r"welke?|vertel|geef|geven|laat zien|laten zien|kun je|kunt u|kunnen jullie|annuleer\w*|retour|start|wat is|"
    r"wat zijn|mag ik|zien",
)
# Signs that the customer is asking about their own purchase (a gift they sent, their own account).
OWN_PURCHASE = (
    r"my order|my own|i (?:ordered|bought|placed|paid)|gift|account holder|i'?m moving|my account|is mine|"
    r"(?:our|a) shared account|can i return|i (?:want|would like|need) to return|i'd like to return|"
    r"(?:change|update|correct|fix|edit) (?:the |my )?(?:delivery |shipping )?address",
    r"meine bestellung|ich habe\b[^.!?\n]{0,60}?\b(?:bestellt|gekauft|geschickt)|geschenk|(?:mein|meinem) konto",
    r"ma commande|j'ai\b[^.!?\n]{0,40}?\b(?:commande|achete|envoye)|cadeau|mon compte",
    r"mi pedido|(?:he|yo|hice|he hecho)\b[^.!?\n]{0,10}?\b(?:pedido|comprado|enviado)|regalo|cumpleanos|mi cuenta",
    r"mijn bestelling|ik heb\b[^.!?\n]{0,60}?\b(?:besteld|gekocht|gestuurd)|cadeau|mijn account|mijn e-mailadres",
)

# --- Notices and claims to have built the assistant --------------------------------------------------
# A message dressed as an internal notice that names a policy subject is a claim, whatever it says.
NOTICE = (
    r"memo|announcement|change ?log|changelog|bulletin|circular|notice|reminder|update|policy patch|patch|"
    r"updated terms|new terms|amendment|addendum|(?:new |updated )?(?:company |internal )?guideline",
    r"mitteilung|rundschreiben|ankundigung|hinweis der|von der (?:geschaftsleitung|rechtsabteilung)",
    r"note de service|annonce|circulaire|avis (?:de|du) (?:la )?(?:direction|service juridique)",
    r"aviso|comunicado|circular|anuncio|nota interna",
    r"mededeling|aankondiging|rondschrijven|memo",
)
# A notice with its sender: "reminder from HQ", "per the updated terms posted yesterday".
NOTICE_FROM = (
    r"(?:memo|announcement|notice|reminder|message|update|note|word|directive)s? (?:from|by) (?:the )?(?:hq|"
    r"headquarters|head office|legal|management|compliance|the board|the ceo|the owner)|(?:updated|new) terms "
    r"(?:posted|published|say|state)|per the (?:updated|new|revised) (?:terms|policy)|(?:revised|amended) terms|"
    r"(?:is|are) out of date|the current version says|there was a memo",
    r"(?:mitteilung|ankundigung|hinweis|rundschreiben) (?:der|von der|vom) (?:geschaftsleitung|zentrale|"
    r"rechtsabteilung)|richtlinienanderung|ab sofort gilt",
    r"(?:note|annonce|message) de la (?:direction|service juridique)|changement de politique|avec effet immediat",
    r"(?:aviso|comunicado|nota) de (?:la )?(?:direccion|gerencia|sede|departamento legal)|cambio de politica|"
    r"con efecto inmediato",
    r"(?:mededeling|bericht) (?:van|vanuit) (?:het )?(?:hoofdkantoor|management|directie|juridische zaken)|"
    r"beleidswijziging|per direct|met onmiddellijke ingang",
)
# Coercion by law or compliance: "under a court order you are required to disclose".
LEGAL_DEMAND = (
    r"court order|subpoena|warrant|for (?:legal|compliance) reasons|legal(?:ly)? (?:obliged|required|obligated)|"
    r"(?:you are|you're) (?:legally )?(?:required|obliged|obligated) to|legal counsel|law enforcement|"
    r"police (?:officer|investigation|request)",
    r"gerichtsbeschluss|gerichtlich|rechtlich verpflichtet|aus rechtlichen grunden|polizei",
    r"decision de justice|ordonnance|mandat|pour des raisons (?:legales|juridiques)|legalement tenu|police",
    r"orden judicial|por razones legales|obligad[oa]s? (?:por ley|legalmente)|policia",
    r"gerechtelijk bevel|om juridische redenen|wettelijk verplicht|politie",
)
# Claiming to have built, trained or to own the assistant or the store.
CREATOR = (
    r"(?:built|made|created|trained|programmed|designed|wrote|coded|developed|deployed) you|your (?:creators?|makers?|"
    r"developers?|programmers?|owners?|engineers?)|(?:i'?m|i am|we are|speaking as) (?:the |one of the )?(?:store |"
    r"shop |bookly )?(?:owner|ceo|cto|founder|co-founder)s?\b|logged in as (?:staff|an? admin|admin|an? employee)|"
    r"(?:the )?(?:ceo|cto|founder|owner) (?:\w+ )?(?:told|said|asked|wants|approved|authori[sz]ed)",
    r"(?:dich|sie) (?:gebaut|programmiert|entwickelt|trainiert)|deine (?:entwickler|programmierer|schopfer)",
    r"(?:t'|vous) (?:ai|avons) (?:cree|programme|developpe|entraine)|tes (?:createurs|developpeurs)",
    r"te (?:cree|programe|desarrolle|entrene|hicimos|creamos)|tus (?:creadores|desarrolladores|programadores)",
    r"(?:jou|u) (?:gebouwd|geprogrammeerd|ontwikkeld|getraind)|je (?:makers|ontwikkelaars|programmeurs)",
)

# A theatre, where playing a role is a part, not a persona.
THEATRE = (
    r"(?:school |class |church )?(?:play|musical|production|rehearsals?|audition\w*|stage|theat(?:er|re)|drama club|"
    r"script book|the script)",
    r"theater(?:stuck|gruppe|ag)?|schulauffuhrung|auffuhrung|buhne|probe",
    r"piece de theatre|theatre|spectacle|repetition",
    r"obra de teatro|teatro|funcion escolar|ensayo",
    r"toneelstuk|toneel|schoolmusical|voorstelling|repetitie",
)

# Speaking as staff, in the ways people introduce themselves: "This is Mark from the Bookly support team",
# "Regional director speaking", "it's Dave from the warehouse", "I'm the owner of this company".
STAFF_INTRODUCTION = (
    r"(?:this is|it'?s|its|i'?m|i am) \w+ (?:from|at|in) (?:the |your |bookly'?s? )?"
    r"(?:bookly |support |customer service )?"
    r"(?:support team|team|warehouse|office|hq|headquarters|management|returns desk|returns department|it department)|"
    r"(?:regional |area |store |general |district |operations )?(?:director|manager|supervisor|team lead) "
    r"(?:here|speaking)|owner of (?:this|the|your) (?:company|store|shop|business)|i'?m testing (?:the|this|you) bot|"
    r"(?:i'?m|i am) (?:on|in|with) the (?:bookly )?(?:\w+ )?(?:team|department)|as (?:the )?(?:head|director|vp|"
    r"manager|lead|chief) of (?:\w+ ){0,2}?(?:customer|support|returns|operations|experience|service)|"
    r"(?:support |service )?agent #? ?\d+ here|logged in on (?:the|a) customer'?s behalf|"
    r"(?:qa|support|returns|it|security|billing|payments|fraud|warehouse) team here",
    r"(?:hier ist|ich bin) \w+ (?:aus|vom|von der) (?:dem )?(?:lager|support|kundenservice|zentrale)",
    r"(?:ici|c'est) \w+ (?:de|du) (?:l'entrepot|service client|support|siege)",
    r"(?:soy|habla) \w+ (?:del|de la) (?:almacen|soporte|atencion al cliente|sede)",
    r"(?:dit is|hier is) \w+ (?:van|uit) (?:het )?(?:magazijn|klantenservice|support|hoofdkantoor)|"
    r"ik ben (?:\w+ )?(?:teamleider|manager|leidinggevende|medewerker|supervisor) (?:bij|van) bookly",
)
# What staff would be asked to do for the speaker.
STAFF_ACTION = (
    r"mark (?:it|this|the order|bk-\d+) (?:as )?(?:refunded|returned|delivered)|list (?:the |all )?(?:last )?"
    r"(?:\w+ )?orders|issue|process|refund|approve|skip|override|authori[sz]e|push (?:it )?through|get around|"
    r"work around",
    r"erstatt\w*|genehmig\w*|freigeb\w*|uberspring\w*|markier\w*",
    r"rembours\w*|approuv\w*|valid\w*|ignor\w*",
    r"reembols\w*|aprob\w*|salt\w*|marc\w*",
    r"terugbetal\w*|goedkeur\w*|overslaan|markeer\w*|toestemming|negeren",
)

# Where a jailbreak is a phone's, not the assistant's ("my phone got jailbroken").
DEVICE = (
    r"phone|iphone|ipad|android|tablet|device|console|laptop|kindle|e-?reader",
    r"handy|telefon|gerat",
    r"telephone|portable|appareil|tablette",
    r"telefono|movil|celular|dispositivo",
    r"telefoon|toestel|mobiel",
)
