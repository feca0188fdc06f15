"""Pattern tables for L4 (guardrails/output.py): what a claim, a commitment or a policy statement looks like.

Data only; the logic that reads these lives in output.py. Every pattern is matched case-insensitively
against one sentence of the reply at a time, except the markdown patterns at the end.
"""

import re


def _word_set(text: str) -> frozenset[str]:
    return frozenset(text.split())


# --- Order statuses ---------------------------------------------------------------------------------

# A sentence stating that an order is in a status. "shipped" is also true of a delivered order.
STATUS_CLAIMS: dict[str, str] = {
    "delivered": (
        r"\b(?:was|were|has been|have been|got|is|are|shows? as|marked as|listed as)\s+"
        r"(?:now\s+|already\s+)?delivered\b"
        r"|\b(?:order|parcel|package)\s+(?:has\s+|have\s+)?(?:already\s+)?arrived\b"
        # German, French, Spanish, Dutch
        r"|\b(?:wurde|wurden|ist|sind)\s+(?:\S+\s+){0,5}?(?:zugestellt|geliefert|angekommen)\b"
        r"|\b(?:a été|ont été|est|sont)\s+(?:bien\s+)?(?:livrée?s?|arrivée?s?)\b"
        r"|\b(?:fue|fueron|ha sido|han sido|se)\s+(?:\S+\s+){0,1}?(?:entregad[oa]s?|entregó|entregaron)\b"
        r"|\b(?:is|zijn|werd|werden)\s+(?:\S+\s+){0,5}?(?:bezorgd|geleverd|afgeleverd|aangekomen)\b"
    ),
    "shipped": (
        r"\b(?:has|have)\s+(?:now\s+|already\s+|just\s+)?shipped\b"
        r"|\b(?:was|were|has been|have been|is|are)\s+(?:now\s+|already\s+|just\s+)?(?:shipped|dispatched|sent out)\b"
        r"|(?:\b(?:is|are)|'s|'re)\s+(?:now\s+|currently\s+)?(?:on (?:its|their) way|in transit)\b"
        r"|\bshows? as shipped\b|\b(?:bk-\d+|order|it|parcel|package)\s+(?:already\s+|just\s+)?shipped\b"
        r"|\b(?:wurde|wurden|ist|sind)\s+(?:\S+\s+){0,3}?(?:versandt|verschickt|versendet|unterwegs)\b"
        r"|\b(?:a été|ont été|est|sont)\s+(?:bien\s+)?(?:expédiée?s?|envoyée?s?|en route|en chemin)\b"
        r"|\b(?:est|sont)\s+(?:déjà\s+|bien\s+)?partie?s?\b(?!\s+(?:de|du|des|d')\b)"
        r"|\b(?:fue|fueron|ha sido|han sido|está|están)\s+(?:ya\s+)?(?:enviad[oa]s?|en camino|en tránsito)\b"
        r"|\b(?:ya\s+)?se\s+(?:ha|han)\s+(?:enviado|despachado|mandado)\b|\bse\s+(?:envió|enviaron|despachó)\b"
        r"|\b(?:is|zijn|werd|werden)\s+(?:\S+\s+){0,3}?(?:verzonden|verstuurd|onderweg)\b"
        r"|\b(?:has|have)\s+(?:already\s+)?left\s+(?:our|the)\s+warehouse\b|\bsali(?:ó|eron)\s+(?:de|del)\s+"
        r"(?:nuestro\s+)?almacén\b|\b(?:hat|haben)\s+(?:\S+\s+){0,2}?(?:unser|das)\s+lager\s+verlassen\b"
        r"|\b(?:a|ont)\s+(?:déjà\s+)?quitté\s+(?:notre|l')\s*entrepôt\b|\b(?:heeft|hebben)\s+(?:\S+\s+){0,2}?"
        r"(?:ons|het)\s+magazijn\s+verlaten\b"
    ),
    "processing": (
        r"(?:\b(?:is|are)|'s|'re)\s+(?:still\s+|currently\s+)?"
        r"(?:being\s+(?:prepared|processed|packed|picked)|processing|in processing)\b"
        r"|\b(?:hasn't|has not|haven't|have not)\s+(?:shipped|been shipped|left our warehouse)\s+yet\b"
    ),
    "cancelled": (
        r"\b(?:was|were|has been|have been|is|are|shows? as)\s+(?:now\s+)?cancell?ed\b"
        r"|\b(?:wurde|ist|a été|est|fue|ha sido|está|werd|is)\s+(?:\S+\s+){0,2}?(?:storniert|annulée?s?|"
        r"cancelad[oa]s?|geannuleerd)\b"
    ),
    "out_for_delivery": (
        r"(?:\b(?:is|are|currently)|'s|'re)\s+(?:now\s+|currently\s+)?out for delivery\b"
        r"|\b(?:is|are|'s|'re)\s+(?:now\s+)?(?:scheduled|due|set|expected)\s+(?:for\s+delivery|to\s+(?:be\s+delivered|"
        r"arrive))\s+(?:today|this (?:morning|afternoon|evening))\b"
        r"|\b(?:está|están|ist|sind|est|sont|is|zijn)\s+(?:ya\s+|bereits\s+|déjà\s+|al\s+)?(?:en reparto|in zustellung|"
        r"en cours de livraison)\b"
    ),
    # Lost in transit: no lookup has such a status, so only the customer or the model can have said it
    # ("the carrier marked BK-64555 as lost", "le colis BK-52718 est perdu").
    "lost": (
        r"\b(?:was|were|has been|have been|is|are|got|'s|'re|been)\s+(?:now\s+|officially\s+|already\s+)?"
        r"(?:(?:marked|listed|reported|declared|confirmed|registered|recorded)\s+(?:as\s+)?)?lost\b"
        r"|\bmarked\s+(?:\S+\s+){0,2}?as\s+lost\b|\blost\s+in\s+(?:transit|the post|the mail)\b"
        r"|\b(?:ist|sind|wurde|wurden|gilt)\s+(?:\S+\s+){0,3}?(?:verloren|verlorengegangen|verschollen)\b"
        r"|\b(?:est|sont|a été|ont été)\s+(?:\S+\s+){0,1}?(?:perdue?s?|égarée?s?)\b"
        r"|\b(?:está|están|fue|ha sido|se ha|se)\s+(?:\S+\s+){0,1}?(?:perdid[oa]s?|extraviad[oa]s?|perdió|extravió)\b"
        r"|\b(?:is|zijn|werd|raakte)\s+(?:\S+\s+){0,3}?(?:kwijtgeraakt|kwijt|zoekgeraakt|verloren gegaan)\b"
        # the carrier as the one who lost it: "the carrier lost BK-29983", "der Paketdienst hat es verloren"
        r"|\b(?:carrier|courier|driver|post office|postal service|ups|dhl|fedex|usps)\s+(?:has\s+|have\s+|had\s+)?"
        r"(?:lost|misplaced|mislaid)\s+(?:it|them|bk-\d+|your|the|this|that)\b"
        r"|\b(?:paketdienst|zusteller|kurier|post)\s+hat\s+(?:\S+\s+){0,3}?verloren\b"
    ),
    # not delivered yet: "still on its way", "noch unterwegs"
    "in_transit": (
        r"(?:\b(?:is|are)|'s|'re)\s+still\s+(?:on (?:its|their) way|in transit)\b"
        r"|\bnoch\s+unterwegs\b|\btoujours\s+en\s+(?:route|chemin|transit)\b|\btodavía\s+en\s+camino\b"
        r"|\bnog\s+(?:steeds\s+)?onderweg\b"
    ),
}
# A status word written right after an order number ("BK-40988, which has shipped; BK-40317, delivered",
# "BK-70456 (delivered)"): the status of that order, whatever other orders the sentence names.
ORDER_STATUS_WORDS: dict[str, str] = {
    "delivered": (
        r"delivered|arrived|zugestellt|geliefert|angekommen|livrée?s?|arrivée?s?|entregad[oa]s?|"
        r"bezorgd|geleverd|afgeleverd|aangekomen"
    ),
    "shipped": (
        r"shipped|dispatched|on (?:its|their) way|in transit|versandt|verschickt|versendet|unterwegs|expédiée?s?|"
        r"en route|en chemin|enviad[oa]s?|en camino|en tránsito|verzonden|verstuurd|onderweg"
    ),
    "processing": (
        r"processing|being (?:prepared|processed|packed)|in bearbeitung|en (?:cours de )?préparation|"
        r"en preparación|en proceso|in behandeling|"
        r"(?:wird|werden)\s+(?:gerade\s+|noch\s+|derzeit\s+|aktuell\s+)*bearbeitet|en cours de traitement|"
        r"(?:se\s+está|están?\s+siendo)\s+(?:procesando|procesad[oa]s?|preparando|preparad[oa]s?)|"
        r"wordt\s+(?:nog\s+)?(?:verwerkt|voorbereid|klaargemaakt)"
    ),
    "cancelled": r"cancell?ed|storniert|annulée?s?|cancelad[oa]s?|geannuleerd",
    "out_for_delivery": r"out for delivery|in zustellung|en cours de livraison|en reparto|wordt bezorgd",
}
ORDER_STATUS_GAP_WORDS = 6  # words between the order number and its status word

# Carriers by name. No tool result names one, so a reply may name a carrier only when a result
# does, or when a grounded tracking number is in that carrier's format (1Z… is UPS).
CARRIER = (
    # ("mix-ups", German "Ups, …": only the capitals name the carrier)
    r"\b(?<!-)(?:(?-i:UPS)|fedex|fed ex|dhl|usps|royal mail|parcelforce|evri|hermes|dpd|gls|postnl|bpost|la poste|"
    r"colissimo|chronopost|correos|seur|mrw|deutsche post|canada post|australia post|purolator|ontrac|amazon logistics|"
    r"poste italiane|an post|yodel)\b"
)
# A carrier's building a parcel passes through.
_DEPOT = (
    r"(?:hub|depot|sorting (?:facility|centre|center|office)|distribution (?:centre|center|facility)|"
    r"delivery (?:station|office))"
)
# A tracking event: where the parcel was scanned, which depot or hub it sits in, who signed for it,
# where the driver left it. The lookup has a status and a tracking number, never the carrier's events.
TRACKING_EVENT = (
    r"\b(?:was|were|got|been|'s|is|are)\s+(?:\w+\s+){0,2}?scanned\b(?!\s+(?:as\s+)?(?:delivered|shipped))"
    r"|\b(?:carrier|courier|driver)\s+(?:has\s+|just\s+|already\s+)*(?:scanned|picked it up|collected it)\b"
    r"|\b(?:is|'s|are|'re|currently|now|sitting|arrived)\s+(?:\w+\s+){0,2}?(?:at|in)\s+(?:the|a|your|their)\s+"
    rf"(?:local\s+|regional\s+|nearest\s+)?(?:[\w-]+\s+)?(?:{_DEPOT}|customs)\b"
    r"|\bsigned for\b(?!\s*\?)|\b(?:got|took|obtained|collected|received)\s+(?:a\s+|your\s+)?signature\b|"
    r"\bsignature\s+(?:on|upon|at)\s+delivery\b|\b(?:is|'s|are|currently|now)\s+(?:\w+\s+)?out for delivery\b"
    # a named depot or sorting centre in the other four languages: "liegt im Verteilzentrum in Chicago"
    r"|\b(?:verteilzentrum|paketzentrum|zustellbasis|zustelldepot|centre de tri|centre de distribution|"
    r"agence de livraison|centro de distribución|centro logístico|centro de reparto|oficina de reparto|sorteercentrum|"
    r"distributiecentrum|bezorgdepot)\b"
    # held at customs, in the five languages
    r"|\b(?:held|stuck|waiting|sitting|retained)\s+(?:up\s+)?(?:at|in)\s+customs\b|\bim zoll\b|\bbeim zoll\b"
    r"|\b(?:bloquée?|retenue?)\s+(?:à|en)\s+(?:la\s+)?douane\b|\bretenid[oa]\s+en\s+(?:la\s+)?aduanas?\b"
    r"|\b(?:bij|in)\s+de\s+douane\b"
    r"|\b(?:zusteller|paketbote|bote|fahrer)\s+hat\s+(?:\w+\s+){0,6}?(?:abgelegt|abgestellt|abgegeben|hinterlegt)\b"
    r"|\b(?:livreur|transporteur)\s+(?:l'|les\s+|le\s+colis\s+)?a\s+(?:\w+\s+){0,2}?(?:déposée?s?|laissée?s?)\b"
    r"|\b(?:repartidor|mensajero)\s+(?:lo\s+|la\s+|los\s+)?(?:dejó|ha dejado|entregó)\b"
    r"|\bbezorger\s+heeft\s+(?:\w+\s+){0,6}?(?:neergezet|afgegeven|achtergelaten|neergelegd)\b"
    r"|\b(?:driver|courier|carrier)\s+(?:left|placed|put|handed)\s+(?:it|them|the parcel|the package|your parcel|"
    r"your package|bk-\d+|your order|the order)\b"
    r"|\b(?:driver|courier|carrier)\s+(?:left|took|sent|uploaded|attached)\s+(?:a|an)\s+(?:photo|picture|note|card|slip)\b"
    r"|\b(?:at|in)\s+the\s+carrier's\s+(?:facility|depot|hub|warehouse)\b"
    # a delivery attempt, a depot or sorting centre reached: "the carrier tried to deliver it twice"
    r"|\b(?:carrier|courier|driver|they|ups|dhl|fedex|usps)\s+(?:has\s+|have\s+|already\s+)?(?:tried|attempted)\s+"
    r"(?:to\s+deliver|delivery)\b|\b(?:a|one|two|2|three|3|several|first|second|failed|missed)\s+delivery\s+"
    r"attempts?\b|\battempted\s+delivery\b|\b(?:zustellversuch\w*|tentatives? de livraison|intentos? de entrega|"
    r"bezorgpoging\w*)\b"
    r"|\b(?:bezorger|koerier|postbode)\s+(?:heeft|is)\b[^.!?]{0,30}?\b(?:aangebeld|langs\s*geweest|langsgekomen)\b"
    r"|\b(?:zusteller|bote|kurier)\s+(?:hat|war)\b[^.!?]{0,30}?\b(?:geklingelt|da|vorbeigekommen)\b"
    r"|\b(?:livreur|facteur)\s+est\s+(?:déjà\s+)?passé\b|\b(?:repartidor|mensajero)\s+(?:ya\s+)?(?:pasó|intentó)\b"
    rf"|\bleft\s+the\s+(?:\w+\s+){{0,2}}?{_DEPOT}\b"
    r"|\b(?:afhaalpunt|pakketpunt|abholstation|packstation|paketshop|point relais|punto de recogida|pickup point|"
    r"collection point)\b"
    r"|\b(?:reached|arrived at|got to|made it to)\s+(?:the|a|your)\s+(?:local\s+|regional\s+|nearest\s+)?"
    rf"(?:[\w-]+\s+)?{_DEPOT}\b"
    r"|\bdelivery\s+(?:photo|picture)\s+(?:shows|was)\b"
    # a parcel held somewhere on its way: "a delay at their hub", "stuck at the sorting centre"
    r"|\b(?:delay(?:ed)?|held(?:\s+up)?|stuck|sitting|backed up|backlog)\s+(?:\w+\s+){0,2}?(?:at|in)\s+"
    rf"(?:the|their|its|your)\s+(?:local\s+|regional\s+)?(?:[\w-]+\s+)?{_DEPOT}\b"
    # where it was left: "delivered on February 8 and left at your front door"
    r"|\b(?:was|were|been|and)\s+(?:left|placed|put|handed over|dropped off)\s+"
    r"(?:at|on|in|with|by|behind|under|next to)\s+"
    r"(?:your|the|a)\s+(?:front\s+|back\s+|side\s+)?(?:door|porch|doorstep|step|mailbox|letterbox|neighbou?r|reception|"
    r"garage|gate|safe place|concierge|front desk|parcel locker|building)\b"
    r"|\b(?:(?:vor|an) der (?:haus|wohnungs)?tür|im (?:haus)?flur|im treppenhaus|beim nachbarn|"
    r"bei (?:ihrem|deinem) nachbarn)\s+(?:abgelegt|abgegeben|abgestellt|hinterlegt)\b"
    r"|\bdéposée?s?\s+(?:devant|chez|dans)\b|\b(?:dejad[oa]s?|entregad[oa]s?)\s+(?:en la puerta|"
    r"con (?:su|tu|el) vecino|en (?:la )?conserjería)\b|\b(?:bij de buren|bij je buren|bij uw buren|voor de deur)\s+"
    r"(?:afgeleverd|bezorgd|neergezet|achtergelaten)\b"
    # a letterbox as where it went: "de bezorger heeft hem in je brievenbus gedaan", "metido en tu buzón"
    r"|\bin\s+(?:je|jouw|uw|de)\s+brievenbus\s+(?:gedaan|gestopt|gegooid|achtergelaten|bezorgd|gelegd)\b"
    r"|\bin\s+(?:den|ihren|deinen|euren)\s+briefkasten\s+(?:gelegt|gesteckt|geworfen|eingeworfen|zugestellt)\b"
    r"|\b(?:dejad[oa]|dejó|metid[oa]|metió|pus[oe]|puesto|entregad[oa])\s+en\s+(?:tu|su|el)\s+buzón\b"
    r"|\b(?:put|pushed|posted|slid|dropped)\s+(?:it|them)\s+(?:through|in|into)\s+(?:your|the)\s+"
    r"(?:letterbox|mailbox|letter box|mail slot)\b"
    # a parcel split in two: "Your order was split into two shipments", "will follow separately"
    r"|\b(?:split|divided)\s+(?:into|in)\s+(?:two|2|three|3|several|multiple|separate)\s+(?:shipments|parcels|packages|"
    r"boxes|deliveries)\b|\b(?:ships?|shipped|sent|coming|arrive|arriving|follows?|following)\s+(?:in\s+a\s+)?"
    r"(?:separately|in (?:a )?separate (?:parcel|package|shipment|box)s?)\b"
    r"|\bwill\s+follow\s+(?:separately|later|in a (?:second|separate) (?:parcel|package|shipment))\b"
    r"|\bin\s+(?:two|2|three|3|several|multiple)\s+(?:separate\s+)?(?:parcels|packages|shipments|boxes)\b"
    r"|\ben\s+(?:dos|tres|varios)\s+paquetes\b|\ben\s+(?:deux|trois|plusieurs)\s+colis\b"
    r"|\b(?:two|twee|zwei|deux|dos)\s+(?:tracking\s*numbers|trackingnummers|sendungsnummern|numéros de suivi|"
    r"números de seguimiento)\b|\b(?:het|es)\s+(?:zijn|sind)\s+(?:twee|zwei)\s+(?:pakketten|pakete)\b"
    r"|\bin\s+(?:zwei|drei|mehreren)\s+(?:paketen|sendungen)\b|\bin\s+(?:twee|drie|meerdere)\s+(?:pakketten|zendingen)\b"
)
# Words that make a statement a guess, not a claim: "the driver may have left it with a neighbour".
# ("May 5" is a date)
HEDGE = (
    r"\b(?:may(?!\s+\d)|might|could|possibly|perhaps|probably|maybe|likely|often|sometimes|usually|typically|"
    # the other four languages: "Parfois le colis est déposé chez un voisin"
    r"parfois|peut-être|probablement|souvent|généralement|manchmal|vielleicht|wahrscheinlich|oft|normalerweise|"
    r"a veces|quizás?|tal vez|probablemente|normalmente|soms|misschien|waarschijnlijk|vaak|meestal)\b"
)

# Which tool-result statuses make a claimed status true.
STATUS_SUPPORT: dict[str, frozenset[str]] = {
    "delivered": frozenset({"delivered"}),
    "shipped": frozenset({"shipped", "delivered", "out_for_delivery"}),
    "processing": frozenset({"processing"}),
    "cancelled": frozenset({"cancelled"}),
    "out_for_delivery": frozenset({"out_for_delivery"}),
    "in_transit": frozenset({"shipped", "out_for_delivery"}),
    "lost": frozenset(),
}

# --- Commitments ------------------------------------------------------------------------------------

# (a first verb joined by "and" leaves the action to the second: "I've checked and issued your refund")
_WE = (
    r"(?:i|we)(?:'ve|\s+have|'ll|\s+will|\s+just|\s+already)?"
    r"(?:\s+(?:now|just|already|successfully|also|gone ahead and|went ahead and|personally|[a-z]+ed\s+and))*"
)
_DONE = r"(?:has|have)\s+(?:now\s+|already\s+|just\s+)?been"
# "return" as the return itself, not its window, policy or label.
_RETURN = r"\breturns?\b(?!\s+(?:window|policy|policies|period|label|deadline|shipping|address))"

# Each commitment is (actor, tense, modality) + an action class + an object. The action class names
# the tool evidence that backs it; the tables below are grouped by that evidence.

# "Only then", a condition after its request: "erst dann ist sie angelegt", "pas dan", "seulement alors".
_ONLY_THEN = r"erst (?:dann|wenn|nachdem)|pas (?:dan|als|nadat)|seulement (?:alors|après)|s[oó]lo entonces"

# Backed by an applied initiate_return (a result with an rma_number) for that order and those items
# (titles and count), or, said as what will happen once the customer confirms, by a pending one.
RETURN_COMMITMENTS: dict[str, str] = {
    "return_started": (
        rf"\b{_WE}\s+(?:now\s+|just\s+)?(?:started|initiated|created|opened|processed|submitted|booked|"
        r"registered|logged|filed|approved|confirmed|completed|finali[sz]ed|arranged|placed|raised|lodged|"
        r"put through|start|initiate|create|open|process|submit|approve|confirm|complete|finali[sz]e|"
        r"arrange|place|raise|lodge|put through)\s+"
        r"(?:(?:a|the|your|this)\s+(?:\w+\s+){0,2}?)?returns?\b"
        r"(?!\s+(?:window|policy|policies|period|deadline|label|eligibility|options?|is eligible|are eligible))"
        rf"|{_RETURN}(?:\s+[^\s.!?]+){{0,9}}?\s+{_DONE}\s+(?:started|initiated|created|opened|processed|approved|"
        r"accepted|confirmed|submitted|registered|set up|completed|finali[sz]ed|booked|logged|placed)\b"
        # (not the window: "You can still return X, the window is open until August 15")
        rf"|{_RETURN}(?:\s+[^\s.!?]+){{0,9}}?(?<!window)(?<!period)\s+(?:is|was|'s)\s+(?:now\s+|all\s+|already\s+)?"
        r"(?:started|initiated|created|open|approved|"
        r"accepted|confirmed|underway|in progress|set|complete|done|finished|sorted|taken care of|being processed|"
        r"booked|logged|placed)\b"
        rf"|{_RETURN}(?:\s+[^\s.!?]+){{0,9}}?\s+will\s+(?:now\s+)?be\s+(?:created|started|processed|approved|accepted)\b"
        rf"|{_RETURN}(?:\s+[^\s.!?]+){{0,9}}?\s+(?:went through|has gone through|is in the system|is on its way)\b"
        rf"|{_RETURN}(?:\s+[^\s.!?]+){{0,9}}?\s+(?:is|was|'s)\s+(?:now\s+|all\s+)?(?:registered|recorded|filed|submitted)\b"
        r"|\b(?:i'm|i am|we're|we are)\s+(?:now\s+|just\s+)?(?:starting|initiating|creating|processing|submitting|"
        r"opening|booking)\s+(?:(?:a|the|your|this)\s+(?:\w+\s+){0,2}?)?returns?\b"
        # a return named by "one": "I've also started one for your other order, BK-72415"
        rf"|\b{_WE}\s+(?:now\s+|also\s+)?(?:started|created|opened|set up|initiated|prepared|submitted)\s+"
        r"(?:one|another(?:\s+one)?)\s+(?:for|on)\b"
        # a blanket completion: "Consider it done", "that's all taken care of"; a headline: "Return started!"
        r"|\bconsider it done\b|^\W*(?:your\s+)?return\s+(?:started|created|submitted|processed|confirmed|done)\b"
        # "I've put the return for Matilda through for you"
        rf"|\b{_WE}\s+put\s+(?:the|your)\s+return\b[^.!?]{{0,40}}?\s+through\b"
        # "so I'll go ahead with yours": the return itself, promised
        r"|\b(?:i'll|i will|we'll|we will)\s+(?:now\s+)?go\s+ahead\s+with\s+(?:yours|your return|the return)\b"
        # German, French, Spanish, Dutch: "die Rücksendung ist gestartet", "le retour a été créé".
        # (not across "only then": "bestätigen Sie die Rücksendung in der App, erst dann ist sie angelegt")
        r"|\b(?:rücksendung|rückgabe|retour|retourzending|devolución|retoursending)\b"
        rf"(?:(?![,;:]\s*(?:{_ONLY_THEN})\b)[^.!?]){{0,40}}?\b"
        r"(?:ist|wurde|wird|est|a (?:bien |déjà )?été|sera|fue|ha sido|se ha|será|está|quedó|queda|ha quedado|is|werd|"
        r"wordt)\s+"
        r"(?:\S+\s+){0,3}?"
        r"(?:gestartet|eingeleitet|erstellt|angelegt|registriert|bestätigt|genehmigt|lancée?|créée?|enregistrée?|"
        r"initiée?|confirmée?|approuvée?|acceptée?|iniciad[oa]|cread[oa]|registrad[oa]|tramitad[oa]|confirmad[oa]|"
        r"aprobad[oa]|aceptad[oa]|akzeptiert|angenommen|geaccepteerd|abgeschlossen|erledigt|finalisée?|"
        r"effectuée?|completad[oa]|finalizad[oa]|procesad[oa]|hech[oa]|"
        r"gestart|aangemaakt|geregistreerd|bevestigd|goedgekeurd|aangevraagd|afgerond|voltooid|verwerkt)\b"
        # "I went ahead and confirmed it for you": only the customer confirms a prepared return
        rf"|\b{_WE}\s+(?:\w+\s+){{0,3}}?confirmed\s+(?:it|the return|your return)\s+for\s+you\b"
        r"|\b(?:votre|le|ton)\s+retour\s+(?:est|a été)\s+(?:bien\s+|déjà\s+)?(?:terminé|validé|finalisé|effectué)\b"
        r"|\bvoor\s+(?:u|je|jou)\s+bevestigd\b|\bfür\s+(?:sie|dich)\s+bestätigt\b|\bconfirmée?\s+pour\s+(?:vous|toi)\b"
        r"|\bconfirmad[oa]\s+por\s+(?:usted|ti)\b"
        # the items as the subject: "Both books are being returned" (a return in progress is a written return)
        r"|\b(?:is|are)\s+(?:now\s+)?being\s+returned\b"
        # "already set aside as a return by our team"
        r"|\b(?:set aside|registered|logged|recorded|booked|set up|processed|filed|noted)\s+as\s+(?:a|your)\s+return\b"
    ),
    # A refund approved for an amount, or one that will follow receipt: what a written return means.
    "refund": (
        rf"\brefunds?\b(?:\s+[^\s!?]+){{0,9}}?\s+{_DONE}\s+(?:approved|authori[sz]ed|confirmed)\b"
        r"|\brefunds?\b(?:\s+[\w$.-]+){0,5}?\s+(?:is|was|'s)\s+(?:now\s+|already\s+)?(?:approved|authori[sz]ed|confirmed)\b"
        rf"|\b{_WE}\s+(?:approved|authori[sz]ed|approve|authori[sz]e)\s+(?:you(?:r)?\b|a\s+(?:full\s+|partial\s+)?refund"
        r"|the\s+refund|\$)"
        r"|\brefunds?\b(?:\s+[\w$.-]+){0,5}?\s+will\s+(?:now\s+)?be\s+(?:issued|processed|sent|approved|credited|paid)\b"
        r"|\byou(?:'ll|\s+will)\s+(?:still\s+|also\s+)?(?:get|receive|be refunded|see)\b(?:\s+[\w$.-]+){0,3}?\s*"
        r"(?:refund|\$\d)"
        r"|\b(?:i|we)(?:'ll|\s+will)\s+(?:then\s+|also\s+)?(?:refund|reimburse|credit)\b"
        r"|\b(?:will|'ll)\s+(?:also\s+|then\s+)?be\s+refunded\b"
        r"|\b(?:i|we)(?:'ll|\s+will)\s+(?:then\s+|also\s+)?(?:issue|process|send)\s+(?:you\s+)?(?:a|the|your)\s+"
        r"(?:full\s+|partial\s+)?refund\b"
    ),
    "label": (
        r"\band\s+(?:also\s+|already\s+)?(?:sent|emailed|mailed)\s+(?:you\s+)?(?:a|the|your)\s+(?:prepaid\s+)?(?:return\s+)?"
        r"(?:shipping\s+)?label\b|"
        rf"\blabels?\b(?:\s+\w+){{0,3}}?\s+{_DONE}\s+(?:sent|emailed|issued|generated|created|mailed)\b"
        rf"|\b{_WE}\s+(?:sent|emailed|generated|created|mailed|send|email|generate|create|mail)\s+(?:you\s+)?"
        r"(?:a|the|your)\s+(?:new\s+|fresh\s+|replacement\s+|second\s+|another\s+)?(?:prepaid\s+)?(?:return\s+)?"
        r"(?:shipping\s+)?label\b"
        # "you'll receive an email with your return label shortly"
        r"|\byou(?:'ll|\s+will)\s+(?:\w+\s+)?(?:receive|get)\s+(?:an?\s+)?(?:(?:e-?mail|message)\s+with\s+)?"
        r"(?:a|the|your)\s+(?:prepaid\s+)?(?:return\s+)?(?:shipping\s+)?label\b"
        r"|\blabels?\s+(?:will be|is being|is on its way|is in your inbox|was)\s+(?:emailed|sent|mailed|on its way)?"
        r"|\blabels?\s+is\s+(?:already\s+|now\s+)(?:in your inbox|on its way)"
        r"|\b(?:etikett|rücksendeetikett|étiquette|etiqueta|retourlabel|verzendlabel)\b[^.!?]{0,30}?\b"
        r"(?:wurde|ist|wird|a été|est|sera|fue|ha sido|se ha|será|is|werd|wordt)\s+(?:\S+\s+){0,3}?(?:gesendet|"
        r"geschickt|verschickt|versendet|zugeschickt|gemailt|envoyée?|enviad[oa]|verstuurd|gestuurd|gemaild)\b"
        # sent by the assistant itself: "Ya te envié la etiqueta", "je t'envoie une nouvelle étiquette"
        r"|\b(?:te|le|les|os)\s+(?:he\s+|hemos\s+)?(?:envié|enviamos|enviado|mandé|mandamos|mandado|envío|mando)\s+"
        r"(?:ya\s+)?(?:la|una|otra)\s+(?:nueva\s+)?etiqueta\b"
        r"|\b(?:je|nous)\s+(?:vous|t'|te)\s*(?:ai\s+|avons\s+)?(?:envoie|envoyons|envoyé|renvoie|renvoyé)\s+"
        r"(?:une|l'|la|votre|ton|ta)\s*(?:nouvelle\s+)?étiquette\b"
        r"|\b(?:ich|wir)\s+(?:habe|haben|schicke|schicken|sende|senden|maile)\s+(?:ihnen|dir|euch)\s+(?:\S+\s+){0,2}?"
        r"(?:etikett|rücksendeetikett|versandetikett|label)\b"
        r"|\b(?:ik|we|wij)\s+(?:heb|hebben|stuur|sturen|mail)\s+(?:je|u|jou)\s+(?:\S+\s+){0,2}?(?:retourlabel|label|"
        r"verzendlabel)\b"
    ),
}
# How one order ships or what its shipping cost: no tool result has a shipping method or a shipping charge
# ("Since BK-61530 came to more than $25, standard shipping was free", "je hebt $12.50 verzendkosten
# betaald", "BK-60982 was upgraded to expedited shipping", "you chose expedited shipping").
_SHIPPING_COST = r"verzendkosten|versandkosten|frais de (?:port|livraison)|gastos de envío"
_PAID = r"betaald|bezahlt|payée?s?|pagad[oa]s?|pagaste|pagó"
ORDER_SHIPPING = (
    # (in the past, or of "your" shipping: "Standard shipping is free on orders over $25" is the policy)
    r"\b(?:standard|expedited|express|the|your)\s+shipping\s+(?:on\s+(?:it|this|that|your order|bk-\d+)\s+)?"
    r"(?:was|were|has been)\s+(?:already\s+)?(?:free|waived|included|applied|upgraded)\b"
    r"|\byour\s+(?:standard\s+|expedited\s+|express\s+)?shipping\s+is\s+(?:already\s+)?(?:free|waived|upgraded)\b"
    r"|\b(?:return|returning)\s+shipping\s+(?:is|was|will be)\s+free\s+(?:for\s+you|since|because|as)\b"
    r"|\bas\s+an?\s+(?:\w+\s+)?(?:member|customer|subscriber)\b[^.!?]{0,40}\bfree\s+(?:return\s+|expedited\s+)?"
    r"(?:shipping|returns?)\b"
    r"|\byou\s+(?:paid|were charged|got charged)\s+(?:\S+\s+){0,3}?(?:for\s+)?(?:the\s+)?(?:standard\s+|expedited\s+|"
    r"express\s+)?shipping\b"
    r"|\byou\s+(?:chose|selected|picked|opted for|paid for)\s+(?:free\s+)?(?:standard|expedited|express)\s+shipping\b"
    r"|\b(?:was|were|has been|is)\s+(?:now\s+)?(?:upgraded|switched|moved)\s+to\s+(?:free\s+)?(?:expedited|express)\b"
    r"|\b(?:went out|was sent|shipped|came|arrived|is going|goes)\s+(?:with|by|via)\s+(?:free\s+)?"
    r"(?:expedited|express)\s+(?:shipping|delivery)\b"
    rf"|\b(?:{_SHIPPING_COST})\b[^.!?]{{0,40}}?\b(?:{_PAID})\b|\b(?:{_PAID})\b[^.!?]{{0,40}}?\b(?:{_SHIPPING_COST})\b"
)
# Items said to be back with the store already, or sent back by the assistant itself.
RETURNED_CLAIM = (
    r"\b(?:has|have|had|was|were)\s+(?:already\s+)?(?:been\s+)?(?:already\s+)?(?:returned|sent back)\b"
    rf"|\b{_WE}\s+(?:returned|sent back)\s+(?!to\b)"
    r"|\byou(?:'ve|\s+have)\s+(?:already\s+)?(?:returned|sent back)\s+(?!to\b)"
    r"|\bthanks?\s+(?:you\s+)?for\s+(?:sending|mailing|posting)\s+(?:it|them|the\s+\w+|bk-\d+|your\s+order)\s+back\b"
    r"|\bthanks?\s+(?:you\s+)?for\s+returning\b"
    r"|\b(?:al|bereits|schon|déjà|ya)\s+(?:eerder\s+|früher\s+)?(?:geretourneerd|teruggestuurd|zurückgeschickt|"
    r"zurückgegeben|retournée?s?|renvoyée?s?|devuelt[oa]s?)\b"
)
# Items said not to be returned: "Neither book from BK-42975 has been returned yet".
NOT_RETURNED = (
    r"\b(?:neither|none|nothing|no)\b(?!\s+(?:new|other|further|more)\b)[^.!?]{0,40}?\b(?:has|have|was|were)\s+"
    r"(?:yet\s+)?(?:been\s+)?returned\b"
    r"|\b(?:hasn't|haven't|has not|have not|wasn't|weren't)\s+(?:yet\s+)?(?:been\s+)?returned\b"
)
# How many items a commitment is about: "all four books", "both books", "the whole order".
_COUNT_NUMBER = r"two|three|four|five|six|seven|eight|nine|ten|\d{1,2}"
_THESE = r"(?:of\s+)?(?:the\s+|your\s+|those\s+|these\s+)?"
_ITEMS = r"(?:books?|items?|titles?|copies|novels|of them)"
ITEM_COUNT = (
    rf"\b(?:(?P<all>all|every one)\s+{_THESE}(?:(?P<n>{_COUNT_NUMBER})\s+)?{_ITEMS}"
    rf"|(?P<both>both)(?:\s+{_THESE}{_ITEMS}|(?=\s*(?:[.,!;]|$)))"
    rf"|(?P<m>{_COUNT_NUMBER})\s+(?:books|items|titles|copies|novels)"
    r"|(?P<whole>(?:whole|entire|full)\s+order))\b"
)

# Kinds no tool can back: nothing in this product issues or sends a refund in chat (the refund follows
# the warehouse's receipt of the return), grants exceptions, changes or cancels an order, sends
# replacements or credits, or escalates (a handoff is rendered by the server itself).
_ORDER_OBJECT = (
    r"(?:(?:your|the|this|that)\s+(?:\w+\s+){0,2}?(?:order|address|email|delivery|shipment|shipping|parcel|package|"
    r"items?|books?|copy)\b(?!\s+(?:number|id)\b)|(?:order\s+)?bk-\d+|it\b|them\b)"
)
_WEEKDAY = r"monday|tuesday|wednesday|thursday|friday|saturday|sunday"
_TIME_SOON = (
    rf"tomorrow|today|tonight|this (?:morning|afternoon|evening|week|weekend)|next (?:week|{_WEEKDAY})|"
    rf"on (?:{_WEEKDAY})|by (?:{_WEEKDAY}|tomorrow|tonight|noon|the end of (?:the |this )?(?:day|week))|"
    r"within the (?:hour|day)|in (?:an?|one|\d+|a few|a couple of) hours?|first thing|later today|straight away|"
    rf"before (?:the weekend|christmas|the holidays|{_WEEKDAY})|"
    r"right away|immediately"
)
_OTHER_TIME_SOON = (
    r"morgen|heute|demain|aujourd'hui|mañana|hoy|vandaag|sofort|immédiatement|inmediatamente|meteen|"
    r"montag|dienstag|mittwoch|donnerstag|freitag|samstag|sonntag|lundi|mardi|mercredi|jeudi|vendredi|samedi|"
    r"dimanche|lunes|martes|miércoles|jueves|viernes|sábado|domingo|maandag|dinsdag|woensdag|donderdag|vrijdag|"
    r"zaterdag|zondag"
)
_OTHER_FUTURE = (
    r"wird|werden|voraussichtlich|sollte|sera|seront|devrait|arrivera|será|serán|llegará|llegarán|debería|"
    r"wordt|worden|zal|zullen|moet|verwacht"
)
_OTHER_SHIPPED = (
    r"versandt|verschickt|versendet|geliefert|zugestellt|ankommen|expédiée?s?|livrée?s?|arrivera|envoyée?s?|"
    r"enviad[oa]s?|entregad[oa]s?|llegará|llegarán|verzonden|verstuurd|geleverd|bezorgd|aankomen|erstattet|remboursée?s?|"
    r"reembolsad[oa]s?|terugbetaald"
)
_NEXT_WEEK = r"volgende week|nächste woche|nächsten woche|la semaine prochaine|la próxima semana|la semana que viene"
_EXPECT = r"verwachten|erwarten|attendre|esperar\w*"
# What a refund said to be done is, in the other four languages ("wurde überwiesen", "a été versée", "fue
# abonado", "is overgemaakt").
_REFUND_DONE_OTHER_LANGUAGES = (
    r"(?:veranlasst|ausgeführt|überwiesen|genehmigt|gutgeschrieben|bestätigt|effectuée?|versée?|approuvée?|validée?|"
    r"confirmée?|émise?|emitido|emitió|procesado|confirmado|bevestigd|aprobado|tramitado|abonado|uitgevoerd|"
    r"overgemaakt|goedgekeurd|verwerkt|unterwegs|en route|en chemin|en camino|onderweg)"
)

UNBACKED_COMMITMENTS: dict[str, str] = {
    # a label sent again: the written return emails one label, no tool sends another
    "new_label": (
        rf"\b{_WE}\s+(?:just\s+|now\s+)?(?:sent|emailed|resent|re-sent|issued|generated|created)\s+(?:you\s+)?"
        r"(?:a\s+)?(?:new|another|second|fresh|replacement|duplicate)\s+(?:return\s+|shipping\s+)?label\b"
        rf"|\b{_WE}\s+(?:just\s+|now\s+)?re-?sent\s+(?:you\s+)?(?:the|your)\s+(?:return\s+|shipping\s+)?label\b"
    ),
    "refund_issued": (
        # German, French, Spanish, Dutch: the refund said to be made, sent or approved.
        # (an amount's decimal point is no end of sentence: "de terugbetaling van $22.40 is al goedgekeurd")
        r"\b(?:erstattung|ruckerstattung|rückerstattung|remboursement|reembolso|terugbetaling)\b(?:[^.!?]|\.\d){0,40}?\b"
        r"(?:wurde|ist|a été|a|est|fue|ha sido|se|ya se|está|is|werd)\s+(?:\S+\s+){0,3}?"
        rf"{_REFUND_DONE_OTHER_LANGUAGES}\b|"
        # the money as the subject: "die 41,98 $ wurden bereits auf Ihr PayPal-Konto überwiesen", "les 24,95 $ ont
        # déjà été remboursés", "los 30 $ ya fueron abonados", "de $19.50 is al teruggestort"
        r"(?:\$\s?\d[\d.,]*|\b\d[\d.,]*\s?(?:\$|€|euros?|dollars?|dólares))(?:\s+\S+){0,2}?\s+"
        r"(?:wurden|wurde|sind|ist|ont été|a été|ont|sont|fueron|fue|han sido|ha sido|se han|se ha|zijn|is|werd)"
        r"\s+(?:\S+\s+){0,5}?"
        rf"(?:{_REFUND_DONE_OTHER_LANGUAGES}|rembours[ée]e?s?|reembolsados?|terugbetaald|teruggestort|erstattet)\b|"
        rf"\brefunds?\b(?:\s+[\w$.-]+){{0,5}}?\s+{_DONE}\s+(?:issued|processed|sent|initiated|credited|released|"
        r"completed|paid|transferred|deposited|put through|refunded|approved|authori[sz]ed)\b"
        r"|\brefunds?\b(?:\s+[\w$.-]+){0,5}?\s+(?:is|was|'s|were)\s+(?:now\s+|already\s+|currently\s+)?"
        r"(?:issued|processed|sent|initiated|credited|released|complete|completed|paid|on (?:its|the) way|"
        r"being processed|in process|heading|en route|in your account|transferred)\b"
        r"|\brefunds?\b(?:\s+[\w$.-]+){0,5}?\s+(?:has|have)\s+(?:now\s+|already\s+)?(?:gone through|landed|cleared)\b"
        r"|\brefunds?\b(?:\s+[\w$.-]+){0,5}?\s+went\s+through\b"
        rf"|\b{_WE}\s+(?:refunded|reimbursed|credited|paid you back)\b"
        rf"|\b{_WE}\s+(?:already\s+)?(?:started|initiated|begun|kicked off)\s+(?:your|the|a)\s+"
        r"(?:full\s+|partial\s+)?refund\b"
        r"|\b(?:system|warehouse|team|store|bookly|colleague|manager)\s+(?:has|have|'s)\s+(?:automatically\s+|already\s+|"
        r"now\s+|just\s+)*(?:refunded|reimbursed|credited)\b"
        r"|\b(?:i'm|i am|we're|we are)\s+(?:now\s+|just\s+)?(?:processing|issuing|sending|arranging)\s+"
        r"(?:your|a|the)\s+(?:full\s+)?refund\b"
        r"|\b(?:estoy|estamos)\s+(?:procesando|tramitando|emitiendo|gestionando)\s+(?:tu|su|el)\s+(?:reembolso|devolución)\b"
        r"|\b(?:je|nous)\s+(?:traite|traitons|procède|procédons)\s+(?:à\s+)?(?:votre|ton|le)\s+remboursement\b"
        r"|\b(?:ich|wir)\s+(?:bearbeite|bearbeiten|veranlasse|veranlassen)\s+(?:ihre|deine|die)\s+(?:rück)?erstattung\b"
        r"|\b(?:ik|we|wij)\s+(?:verwerk|verwerken|regel|regelen)\s+(?:je|uw|de)\s+terugbetaling\b"
        rf"|\b{_WE}\s+(?:issued|processed|sent|released|initiated|transferred|put through)\s+(?:you\s+)?"
        r"(?:(?:a|the|your)\s+(?:\$\s?\d[\d.,]*\s+|\d[\d.,]*\s?[$€]\s+)?(?:full\s+|partial\s+)?refund|\$\d)"
        r"|\byou(?:'ve|\s+have)\s+(?:already\s+|now\s+)?been\s+(?:refunded|reimbursed|credited)\b"
        r"|\b(?:and|then)\s+(?:issue|process|send|approve)\s+(?:you\s+)?a\s+(?:full\s+|partial\s+)?refund\b"
        # The order, its items or the money as the subject: "your order has been refunded in full",
        # "$41.48 is back on your card".
        rf"|(?:\b(?:order|bk-\d+|items?|books?|audiobooks?|e-?books?|gift cards?|cop(?:y|ies)|purchase|payment|money|"
        rf"amount)\b|\$\s?\d[\d.,]*)(?:\s+[\w$.-]+){{0,3}}?\s+"
        r"(?:(?:has|have)\s+(?:now\s+|already\s+)?been|is|are|was|were)\s+(?:now\s+|already\s+)?(?:fully\s+)?"
        r"(?:refunded|reimbursed|credited)\b"
        r"|(?:\$\d[\d,.]*|\bmoney|\bfunds|\bamount)\s+(?:has been|have been|was|were|is|'s been)\s+"
        r"(?:now\s+|already\s+)?(?:fully\s+)?(?:refunded|credited|returned to you|paid back)\b"
        r"|(?:\$\d[\d,.]*|\bmoney|\bfunds|\bamount)\s+(?:is|are|has been|was)\s+(?:now\s+|already\s+)?back\s+"
        r"(?:on|in|to)\s+your\b"
        # the other four languages: "de $22,00 staat al op je Mastercard", "l'argent est déjà sur votre compte"
        r"|(?:\$\s?\d[\d,.]*|\d[\d,.]*\s?[$€]|\bgeld|\bbedrag|\bbetrag|\bargent|\bmontant|\bdinero|\bimporte)\s+"
        r"(?:staat|is|ist|est|está)\s+(?:al|bereits|schon|déjà|ya)\s+(?:terug\s+|zurück\s+|de retour\s+|de vuelta\s+)?"
        r"(?:op|auf|sur|en)\s+(?:je|jouw|uw|ihrem|ihrer|deinem|deiner|votre|ton|ta|tu|su)\b"
        # approved by someone else: "our returns manager has approved a full refund for your copy"
        r"|\b(?:has|have|'s|had)\s+(?:already\s+|now\s+|just\s+)?(?:approved|authori[sz]ed|okayed|signed off on)\s+"
        r"(?:a|an|the|your)\s+(?:full\s+|partial\s+)?refund\b"
        r"|(?<!\byou\s)(?<!\byou've\s)(?<!\byou have\s)(?<!\bi\s)(?<!\bi've\s)(?<!\bwe\s)(?<!\bwe've\s)"
        r"\b(?:approved|authori[sz]ed|okayed|signed off on)\s+(?:a|an|the|your)\s+(?:late\s+|special\s+|full\s+|"
        r"partial\s+)?(?:refund|return|exception|replacement)\b"
        # the shipping charge refunded, which no return refunds
        r"|\brefund\w*\s+(?:you\s+)?(?:for\s+)?(?:the|your)\s+(?:original\s+)?(?:shipping|postage|delivery)"
        r"(?:\s+(?:cost|costs|fee|fees|charge|charges))?\b"
        r"|\b(?:shipping|postage|delivery)\s+(?:cost|costs|fee|fees|charge|charges)\b(?:\s+[\w$.-]+){0,3}?\s+"
        r"(?:will be|has been|is being|was|'ll be)\s+refunded\b"
        r"|\b(?:erstatt\w*|rembours\w*|reembols\w*|terugbetal\w*|devolv\w*|terug)\b[^.!?]{0,40}?\b(?:versandkosten|"
        r"frais de (?:port|livraison)|gastos de envío|verzendkosten)\b"
        # first person in the other four languages: "Ya te devolvimos los $21.49", "Wir erstatten Ihnen"
        r"|\b(?:ya\s+)?(?:te|le|les|os)\s+(?:devolvimos|devolví|reembolsamos|reembolsé|abonamos|aboné)\b"
        r"|\b(?:wir|ich)\s+(?:erstatten|erstatte|überweisen|überweise)\s+(?:ihnen|dir|euch)\b"
        r"|\b(?:nous|je)\s+(?:vous|te)\s+(?:remboursons|rembourse|avons remboursée?|ai remboursée?)\b"
        r"|\b(?:we|wij|ik)\s+(?:betalen|betaal|storten|stort)\s+(?:u|je|jou)\b[^.!?]{0,30}?\bterug\b"
    ),
    # a new copy sent, in the other four languages: "Ich habe Ihnen bereits ein neues Exemplar … zugeschickt"
    "replacement_other_language": (
        r"\b(?:te|le|les|os)\s+(?:enviaremos|mandaremos|enviaré|mandaré|enviamos|mandamos)\s+(?:un|una|otro|otra)\s+"
        r"(?:\w+\s+)?(?:ejemplar|copia|libro)\b"
        r"|\b(?:nous|je)\s+(?:vous|t'|te)\s*(?:enverrons|enverrai|renverrons|envoyons)\s+(?:un|une)\s+(?:nouvel?|autre)\s+"
        r"(?:exemplaire|livre|copie)\b"
        r"|\b(?:wir|ich)\s+(?:schicken|senden|schicke|sende)\s+(?:ihnen|dir|euch)\s+(?:\S+\s+){0,2}?(?:ein|einen)\s+"
        r"(?:neues|neuen|weiteres|anderes)\s+(?:exemplar|buch)\b"
        r"|\b(?:sturen|stuur|stuurt|zenden|zendt)\s+(?:je|u|jou)\s+(?:\S+\s+){0,2}?(?:een)\s+(?:nieuw|ander)\s+"
        r"(?:exemplaar|boek)\b|"
        r"\b(?:neues|neuen)\s+exemplar\b[^.!?]{0,60}\b(?:zugeschickt|geschickt|versandt|verschickt|unterwegs)\b"
        r"|\b(?:nouvel|nouveau)\s+exemplaire\b[^.!?]{0,60}\b(?:envoyée?|expédiée?|en route|en chemin)\b"
        r"|\bnuevo\s+ejemplar\b[^.!?]{0,60}\b(?:enviado|mandado|en camino)\b"
        r"|\bnieuw\s+exemplaar\b[^.!?]{0,60}\b(?:verstuurd|opgestuurd|gestuurd|onderweg)\b"
        # the present as a promise: "Ik stuur je vandaag nog een nieuw exemplaar", "je vous envoie un nouvel exemplaire"
        r"|\b(?:ich schicke|wir schicken|ich sende|wir senden|je (?:vous |t')?envoie|nous (?:vous |t')?envoyons|"
        r"(?:te |le )?(?:envío|enviamos)|ik stuur|we sturen|wij sturen|ik verstuur)\b[^.!?]{0,40}\b"
        r"(?:(?:neues|neuen|nouvel|nouveau|nuevo|nieuw)\s+(?:exemplar|exemplaire|ejemplar|exemplaar)\b|ersatz\w*|"
        r"(?:exemplaire|livre) de remplacement\b|(?:ejemplar|libro) de (?:reemplazo|repuesto|sustitución)\b|"
        r"vervangend\w*\s+(?:exemplaar|boek)\b)"
    ),
    "refund_sent_other_language": (
        r"\b(?:fue|ha sido|wurde|a été|werd)\s+(?:ya\s+|bereits\s+|schon\s+|déjà\s+|al\s+)?(?:reembolsad[oa]s?|"
        r"(?:zurück)?erstattet|remboursée?s?|terugbetaald)\b|"
        # "ya te hemos enviado el reembolso", "nous avons déjà versé votre remboursement"
        r"\b(?:he|hemos)\s+(?:ya\s+)?(?:enviado|devuelto|abonado|transferido|hecho)\s+(?:el|tu|su)\s+reembolso\b"
        r"|\b(?:j'ai|nous avons)\s+(?:déjà\s+)?(?:envoyé|effectué|versé|émis|viré)\s+(?:le|votre|ton)\s+remboursement\b"
        r"|\b(?:ich habe|wir haben)\s+(?:ihnen\s+|dir\s+)?(?:die|ihre|deine)\s+(?:rück)?erstattung\s+"
        r"(?:bereits\s+|schon\s+)?(?:überwiesen|veranlasst|geschickt|ausgezahlt)\b"
        r"|\b(?:ik heb|we hebben|wij hebben)\s+(?:je|uw)\s+terugbetaling\s+(?:al\s+)?"
        r"(?:verstuurd|overgemaakt|uitgevoerd)\b"
    ),
    # the assistant vouching for what others will do: "I'll make sure the warehouse refunds the $17.00"
    # ("I'll make sure I have the right order": the assistant's own care)
    "assurance": (
        r"\b(?:i'll|i will|we'll|we will)\s+(?:personally\s+|also\s+)?(?:make sure|ensure|see to it)\b"
        r"(?!\s+(?:that\s+)?(?:i|we|i'm|i've|we're|we've)\b)"
    ),
    "exception": (
        r"\b(?:made|make|granted|grant|approved|approve|making|granting|gave|given|give)\s+(?:you\s+)?(?:an?\s+)?"
        r"(?:one-time\s+|one time\s+|special\s+|small\s+)?exception\b"
        r"|\bas an?\s+(?:one-time\s+|one time\s+|special\s+|courtesy\s+)?(?:exception|courtesy|goodwill gesture)\b"
        r"|\b(?:extended|extend|waived|waive|overrode|override|overridden|lifted|lift|bent|bend|dropped|removed)\s+"
        r"(?:the|your|this|that|any)\s+(?:[\w-]+\s+){0,3}?(?:window|deadline|policy|fees?|limit|period|charges?|costs?|"
        r"rules?|requirement)\b"
        r"|\b(?:fees?|charges?|costs?)\b(?:\s+\w+){0,2}?\s+(?:has been|have been|was|were|is|are)\s+(?:now\s+)?waived\b"
        r"|\b(?:window|deadline|period)\b(?:\s+[\w-]+){0,3}?\s+(?:has been|have been|was|is|'s been)\s+(?:now\s+)?"
        r"(?:extended|lengthened|reopened|waived|lifted)\b"
        # an exception or approval said to exist already, or someone else's approval: "since the exception
        # was already approved", "an exception applies", "my supervisor has approved your refund"
        r"|\bexception\s+(?:was|has been|had been|is|'s been)\s+(?:already\s+)?"
        r"(?:approved|granted|made|agreed|in place)\b"
        r"|\ban?\s+exception\s+(?:now\s+)?applies\b"
        r"|\b(?:they|he|she|someone|(?:a|my|the|our)\s+(?:supervisor|manager|colleague|team lead|team))"
        r"(?:'ve|'s|\s+have|\s+has)?\s+(?:already\s+)?(?:approved|authori[sz]ed|okayed|signed off on)\b"
    ),
    "order_change": (
        r"\b(?:ich|wir)\s+(?:storniere|stornieren|ändere|ändern)\s+(?:\S+\s+){0,2}?(?:bestellung|lieferadresse|adresse)\b"
        r"|\b(?:habe ich|haben wir|ich habe|wir haben)\s+(?:\S+\s+){0,2}?(?:bestellung|lieferadresse|adresse)\b"
        r"[^.!?]{0,30}?\b(?:storniert|geändert|umgeleitet|angepasst)\b"
        r"|\b(?:j'|nous\s+)(?:annule|annulons|modifie|modifions)\s+(?:votre|ta|la)\s+(?:commande|adresse)\b"
        r"|\b(?:cancelo|anulo|cancelamos|anulamos|cambio|cambiamos)\s+(?:tu|su|el)\s+(?:pedido|dirección)\b"
        r"|\b(?:ik|we|wij)\s+(?:annuleer|annuleren|wijzig|wijzigen)\s+(?:je|uw|de)\s+(?:bestelling|adres)\b|"
        rf"\b{_WE}\s+(?:now\s+)?(?:cancell?ed|changed|updated|modified|amended|corrected|edited|upgraded|expedited|"
        r"rerouted|redirected|re-routed|prioriti[sz]ed|rushed|cancel|change|update|modify|amend|correct|upgrade|expedite|"
        rf"reroute|redirect|re-route|prioriti[sz]e|rush)\s+{_ORDER_OBJECT}"
        rf"|\b{_WE}\s+(?:put|placed|place)\s+(?:a\s+)?(?:rush|priority|hold|stop)\s+on\b"
        rf"|\b{_WE}\s+(?:put|placed|place)\s+(?:\S+\s+){{1,3}}?on\s+hold\b"
        rf"|\b{_WE}\s+(?:removed|added|swapped|replaced|dropped|taken|took)\b[^.!?]{{0,60}}?\b(?:from|to|in|on)\s+"
        r"(?:your|the|this|that)\s+order\b(?!\s+(?:number|id)\b)"
        rf"|\b(?:order|address|shipment|shipping|delivery|parcel|package)\b(?:\s+[\w-]+){{0,2}}?\s+"
        r"(?:has been|have been|was|were|'s been|is now|are now|will be|'ll be|is being|are being)\s+(?:now\s+)?"
        r"(?:changed|updated|modified|switched|moved|amended|corrected|redirected|rerouted|re-routed|upgraded|expedited|"
        r"prioriti[sz]ed)\b"
        rf"|\b{_WE}\s+(?:added|applied|issued|credited|add|apply|issue|credit)\b(?:\s+[\w$.-]+){{0,4}}?\s+"
        r"(?:store credit|credit|discount|coupon|voucher|promo code|gift card)\b"
        rf"|\b{_WE}\s+(?:sent|send|shipped|ship|arranged|arrange|ordered|order|dispatched|dispatch)\s+(?:you\s+)?"
        r"(?:a\s+)?(?:replacement|new copy|another copy|new one|new gift card|new (?:gift card )?code)\b"
        # a replacement sent, shipped or offered: no tool sends one ("A replacement copy is on its way to you",
        # "we would automatically send you a new one")
        r"|\breplacement(?:\s+copy)?\s+(?:already\s+|just\s+)?(?:shipped|went out|left)\b"
        r"|\b(?:replacement|(?:a\s+)?(?:new|fresh|second)\s+copy|another\s+copy)(?:\s+[^\s!?]+){0,8}?\s+"
        r"(?:has been|is|was|will be|'s|is being|are being|are)\s+"
        r"(?:now\s+|already\s+|also\s+)?(?:sent|shipped|being shipped|being sent|on (?:its|their|the) way|dispatched|"
        r"arranged|ordered|coming|heading|going out)\b"
        r"|\b(?:i|we)\s+(?:would|'d|can|could)\s+(?:\w+\s+)?(?:send|ship|mail)\s+(?:you\s+)?(?:a\s+)?"
        r"(?:replacement|new one|new copy|another copy)\b"
    ),
    "other_action": (
        r"\b(?:team|warehouse|colleague|department|store|system|carrier|courier)\s+"
        r"(?:will|'ll|is going to|are going to|is|are)\s+(?:also\s+|now\s+)?"
        r"(?:send|sending|ship|shipping|mail|mailing|post|posting)\s+(?:you\s+)?(?:a|an|the|your)\b"
        # a note said to be on the order in the other languages: "ya consta así en tu pedido"
        r"|\b(?:ya\s+)?consta\s+(?:así\s+)?en\s+(?:tu|su)\s+pedido\b|\bin\s+(?:ihrer|deiner)\s+bestellung\s+vermerkt\b"
        r"|\bnoté\s+dans\s+(?:votre|ta)\s+commande\b|\bgenoteerd\s+bij\s+(?:je|uw)\s+bestelling\b|"
        # a request filed on the customer's behalf: "I've put in a refund request for it"
        rf"\b{_WE}\s+(?:put in|put through|submitted|filed|lodged|raised|logged|made|opened|sent|placed|created)\s+"
        r"(?:a|an|the|your)\s+(?:\w+\s+)?(?:refund|cancellation|replacement|reimbursement|compensation|redelivery|"
        r"exception|complaint|adjustment|credit|goodwill)\s+(?:request|claim|ticket|application|order)\b|"
        # a note on the account or the order, a freebie: no tool does either
        rf"\b{_WE}\s+(?:put|left|added|placed|made|attached)\s+(?:a\s+)?(?:\w+\s+)?note\s+(?:on|to|in)\s+"
        r"(?:your|the)\s+(?:account|order|file|profile|delivery|parcel)\b"
        rf"|\b{_WE}\s+(?:sent|added|included|thrown in|given|give|send|add|include|gave)\s+(?:you\s+)?(?:a\s+|an\s+)?"
        r"(?:free|complimentary|bonus)\s+"
        r"|"
        # noted on their account, where no tool writes ("I've noted BK-36117" is talk, AGENT_VERBS_BACKED)
        rf"\b{_WE}\s+(?:noted|jotted)\b[^!?]{{0,60}}?\b(?:on|in|to)\s+(?:your|the|their)\s+(?:order\b|"
        r"(?:account|file|record|system|profile|notes)\b)|"
        # a password reset link is sent by the login page, never by the assistant
        r"\b(?:i|we)(?:'ve|\s+have)?\s+(?:(?:also|just|already|now)\s+)*(?:sent|emailed|resent|re-sent)\s+(?:you\s+)?"
        r"(?:a\s+|the\s+)?"
        r"(?:new\s+|fresh\s+)?(?:password\s+)?reset\s+(?:link|email)\b|"
        rf"\b{_WE}\s+(?:contacted|reached out to|asked|notified|informed|messaged|called|contact|notify|inform|call)\s+"
        r"(?:the|our|your)\s+(?:\w+\s+)?(?:carrier|courier|warehouse|shipping|post office|ups|usps|fedex|dhl|driver)\b"
        rf"|\b{_WE}\s+(?:requested|scheduled|arranged|booked|opened|filed|request|schedule|arrange|book|open|file)\s+"
        r"(?:a|an|the)\s+(?:\w+\s+)?(?:redelivery|pickup|pick-up|collection|investigation|trace|claim|ticket|case)\b"
        rf"|\b{_WE}\s+(?:sent|emailed|messaged|logged|filed|raised|lodged|opened|placed|made|written|wrote|spoken|spoke|"
        r"talked|been in touch|got in touch|gotten in touch)\b(?:\s+[\w-]+){0,4}?\s+(?:to|with)\s+(?:the|our|your)\s+"
        r"(?:\w+\s+)?(?:carrier|courier|warehouse|post office|ups|usps|fedex|dhl|driver|depot)\b"
        # the carrier told what to do: "I'll make sure the courier tries again tomorrow"
        rf"|\b{_WE}\s+(?:make sure|ensure|arrange for|see to it that|get)\s+(?:that\s+)?(?:the|your|our)\s+(?:\w+\s+)?"
        r"(?:courier|carrier|driver|delivery person|postman|mail carrier)\b"
        # (not the tracking number, which a shipment adds: "The tracking number is added to the order once it ships")
        r"|\b(?<!number )(?<!numbers )(?:has been|have been|was|were|is|will be)\s+(?:now\s+|also\s+)?added\s+to\s+"
        r"(?:your\s+|the\s+)?"
        r"(?:order|bk-\d+|next order|parcel|shipment)\b"
        r"|\border\b(?:\s+\w+){0,2}?\s+(?:has|have)\s+been\s+(?:upgraded|expedited|prioriti[sz]ed)\b"
        r"|\b(?:order|bk-\d+)\b(?:\s+\w+){0,2}?\s+(?:was|is now|got)\s+(?:upgraded|expedited|prioriti[sz]ed)\b"
    ),
    # A store event promised for a time no tool result gives: "BK-83390 will ship tomorrow morning", "a new
    # tracking number will be emailed within the hour", "morgen wird es versandt".
    "timed_promise": (
        r"\b(?:will|'ll|is going to|are going to|should|(?:is|are|'s) due to|make sure (?:it|they|that|your|the))\b"
        r"[^.!?]{0,60}?\b(?:ships?|shipped|go(?:es)? out|leaves?|dispatch(?:ed)?|arrives?|reach(?:es)? you|delivered|"
        r"get to you|with you|land|issued|emailed|sent|mailed|reshipped|replaced|processed|refunded|credited)\b"
        rf"[^.!?]{{0,40}}?\b(?:{_TIME_SOON})\b"
        # In the other four languages, with a future or an expectation in the sentence ("wird morgen versandt",
        # "llegará el jueves"), never a past fact ("a été livrée le mercredi 10 mars").
        rf"|\b(?:{_OTHER_FUTURE})\b[^.!?]{{0,60}}?(?:\b(?:{_OTHER_TIME_SOON})\b[^.!?]{{0,40}}?\b(?:{_OTHER_SHIPPED})\b"
        rf"|\b(?:{_OTHER_SHIPPED})\b[^.!?]{{0,40}}?\b(?:{_OTHER_TIME_SOON})\b)"
        rf"|\b(?:{_OTHER_TIME_SOON})\b[^.!?]{{0,40}}?\b(?:{_OTHER_FUTURE})\b[^.!?]{{0,40}}?\b(?:{_OTHER_SHIPPED})\b"
        rf"|\b(?:llegará|llegarán|arrivera|arriveront)\b[^.!?]{{0,40}}?\b(?:{_OTHER_TIME_SOON})\b"
    ),
    # an arrival no result dates: "You can expect Happy Place early next week", "It should be at your door by
    # Thursday", "U kunt Bonita Avenue eind volgende week verwachten"
    "delivery_estimate": (
        rf"\byou\s+(?:can|could|should|may)\s+(?:\w+\s+)?expect\b[^.!?]{{0,60}}?\b(?:{_TIME_SOON}|next week|"
        r"end of (?:the|this|next) week|in (?:a|\d+|two|three|a few|a couple of) (?:days|business days))\b"
        r"|\b(?:should|will|'ll)\s+be\s+(?:at your door|on your doorstep|in your (?:hands|mailbox|letterbox))\b"
        rf"[^.!?]{{0,40}}?\b(?:{_TIME_SOON})\b"
        rf"|\b(?:{_NEXT_WEEK})\b[^.!?]{{0,30}}?\b(?:{_EXPECT})\b|\b(?:{_EXPECT})\b[^.!?]{{0,30}}?\b(?:{_NEXT_WEEK})\b"
        # "sollte in 2 Tagen bei Ihnen sein", "devrait arriver demain", "debería llegar mañana"
        r"|\b(?:sollte|sollten|dürfte|dürften|devrait|devraient|debería|deberían|zou|zouden)\b[^.!?]{0,50}?"
        r"\b(?:in \d+ (?:tagen|werktagen|jours|días|dagen)|morgen|demain|mañana|nächste woche|la semaine prochaine|"
        r"la próxima semana|volgende week|bald|bientôt|pronto|binnenkort)\b"
    ),
    "exception_other_language": (
        r"\b(?:kollege|kollegin|vorgesetzte\w*|collègue|responsable|compañer[oa]|collega|leidinggevende)\b[^.!?]{0,60}"
        r"\b(?:zugesagt|genehmigt|versprochen|promis|accordée?|approuvée?|prometid[oa]|aprobad[oa]|concedid[oa]|"
        r"beloofd|goedgekeurd|toegezegd)\b|"
        r"\b(?:exceptionnellement|à titre exceptionnel|ausnahmsweise|excepcionalmente|de manera excepcional|"
        r"uitzonderlijk|bij wijze van uitzondering|met een uitzondering|mit einer ausnahme|avec une exception|"
        r"con una excepción)\b"
        r"|\bje\s+(?:vous|te)\s+(?:accorde|rembourse)\b|\bich\s+(?:gewähre|erstatte)\s+(?:ihnen|dir)\b"
        r"|\b(?:hebt|heeft|hebben)\s+(?:al\s+)?(?:toestemming|goedkeuring)\b|\btoestemming\s+gekregen\b"
        r"|\b(?:bereits|schon)\s+genehmigt\b|\bdéjà\s+(?:été\s+)?(?:approuvée?s?|autorisée?s?)\b"
        r"|\bya\s+(?:fue|ha sido|está|estaba)\s+(?:aprobad|autorizad)[oa]s?\b|"
        r"\b(?:ya\s+)?(?:le|te|les)\s+(?:aprobaron|autorizaron|concedieron)\b|"
        r"\b(?:ausnahme|exception|excepción|uitzondering)\b[^.!?]{0,40}?\b(?:genehmigt|gemacht|gewährt|erteilt|"
        r"accordée?|faite|approuvée?|consentie|aprobad[oa]|concedid[oa]|hech[oa]|autorizad[oa]|goedgekeurd|gemaakt|"
        r"toegestaan|verleend)\b"
        r"|\b(?:wurde|ist|a été|est|fue|ha sido|se ha|se hizo|is|werd|hecho|gemacht|fait|gemaakt|genehmigt|haremos|"
        r"hacemos|ferons|faisons|machen|maken|maak|mache|fais|hago|haré|ferai|"
        r"accordé|concedido|aprobado|goedgekeurd)\s+(?:\S+\s+){0,3}?(?:eine|une|una|een)\s+"
        r"(?:\S+\s+)?(?:ausnahme|exception|excepción|uitzondering)\b"
    ),
    # A message the assistant says it will send later: it cannot write to the customer outside this chat
    # ("I'll send you a reminder email", "Je vous enverrai un e-mail", "Ik stuur u morgen een e-mail").
    # Singular only: "we email you a reset link" is the store's own process.
    "follow_up": (
        r"\bi(?:'ll|\s+will)\s+(?:also\s+)?check\s+(?:back|in)\s+(?:on|with)\b|"
        r"\bi(?:'ll|\s+will|'ve|\s+have)?\s+(?:also\s+|then\s+|personally\s+|just\s+)?(?:send|sent|email|emailed|"
        r"e-mail|message|messaged|text|texted|drop|dropped|shoot)\s+(?:you\s+)?(?:a|an)\s+(?:quick\s+|short\s+|"
        r"follow-up\s+|reminder\s+|courtesy\s+)?(?:reminder|update|follow-up|message|note|notification|email|e-mail|"
        r"text|line|copy|invoice|receipt|statement|summary)\b"
        r"|\bi(?:'ll|\s+will)\s+(?:email|e-mail|message|text|call|ring|contact|notify)\s+you\b"
        r"|\b(?:i|we)(?:'ll|\s+will)\s+(?:\S+\s+){0,8}?get\s+back\s+to\s+you\s+(?:\S+\s+){0,2}?(?:tomorrow|later|soon|"
        r"shortly|by|within|in a)\b"
        r"|\b(?:you'll|you will|u|je|sie)\s+(?:hear|hoort|hören)\s+(?:back\s+)?(?:binnenkort\s+|bald\s+|soon\s+)?"
        r"(?:from|van|von)\s+(?:us|me|ons|mij|uns|mir)\b"
        r"|\bje\s+(?:vous|te)\s+(?:enverrai|écrirai|recontacterai|rappellerai|tiendrai)\b"
        r"|\bich\s+(?:schicke|sende|schreibe|werde)\s+(?:ihnen|dir)\s+(?:\S+\s+){0,3}?(?:e-mail|mail|nachricht|"
        r"erinnerung|update|bescheid)\b|\bich\s+melde\s+mich\b"
        r"|\b(?:le|te)\s+(?:enviaré|escribiré|avisaré|mandaré|llamaré|contactaré)\b"
        r"|\bik\s+(?:stuur|zal)\s+(?:u|je|jou)\s+(?:\S+\s+){0,3}?(?:e-mail|mail|bericht|update|herinnering)\b"
        r"|\bik\s+(?:mail|bel)\s+(?:u|je)\b"
    ),
    # A promise someone made before, confirmed: the customer's word only ("I can see a free replacement was
    # promised for order BK-47669 yesterday", "krijgt het volledige bedrag terug, zoals afgesproken").
    "prior_promise": (
        r"\b(?:as\s+(?:agreed|promised|we agreed|you were promised|(?:my|our|a|the)\s+(?:colleague|agent|manager|"
        r"supervisor|rep\w*|team)\s+(?:told you|said|promised|agreed|mentioned|confirmed|explained)|"
        r"my colleague (?:said|promised|"
        r"agreed|mentioned))|zoals\s+(?:afgesproken|beloofd|toegezegd)|wie\s+(?:vereinbart|versprochen|besprochen|"
        r"zugesagt|abgesprochen)|comme\s+(?:convenu|promis|prévu|entendu)|como\s+(?:acordamos|se acordó|prometimos|"
        r"se (?:te |le )?prometió|te prometieron|le prometieron|quedamos))\b"
        r"|\b(?:was|were|has been|have been)\s+(?:already\s+)?(?:promised|agreed|approved|arranged|offered)\s+"
        r"(?:to you|for (?:you|your|this|that|order|bk-\d+))\b"
        r"|\bi\s+can\s+(?:see|confirm)\s+(?:that\s+)?(?:a|an|the|your)\s+[^.!?]{0,40}?\b(?:was|were|has been)\s+"
        r"(?:promised|approved|agreed|arranged|offered)\b"
    ),
    # Having something sent that no tool sends: "I'll have a Bookly gift card sent to you".
    "pickup": (
        r"\b(?:courier|driver|carrier)\s+(?:picks|will pick|is picking|comes|will come|is coming)\s+(?:it\s+|them\s+|"
        r"the parcel\s+|the package\s+|the books\s+)?(?:up|by)\b"
        r"|\bpick(?:s|ed)?\s+(?:it|the parcel|the package|them)\s+up\s+(?:from|at)\s+your\b"
        r"|\b(?:komen|komt)\b[^.!?]{0,50}?\b(?:ophalen|halen)\b|\b(?:halen|haalt)\b[^.!?]{0,50}?\bop\s*(?:[.!?]|$)"
        r"|\b(?:holen|holt|abholen|abgeholt)\b[^.!?]{0,40}?\b(?:bei (?:ihnen|dir)|zu hause|an ihrer tür)\b"
        r"|\b(?:viendra|viendrons|passera|passerons)\s+(?:\S+\s+){0,4}?(?:récupérer|chercher|enlever)\b"
        r"|\b(?:pasará|pasaremos|vendrá|vendremos|recogerá|recogeremos)\s+(?:\S+\s+){0,4}?(?:a\s+)?(?:recoger|por)\b"
        r"|\b(?:recogerá|recogeremos)\b"
    ),
    "refund_today": (
        r"\b(?:refund\w*|reembols\w*|rembours\w*|erstatt\w*|terugbetal\w*|money)\b[^.!?]{0,40}"
        r"\b(?:today|tomorrow|tonight|hoy|mañana|heute|morgen|aujourd'hui|demain|vandaag)\b"
    ),
    "guarantee": (
        # "ich garantiere Ihnen, dass …", "je vous garantis que …", "le garantizo que …", "ik garandeer je dat …"
        r"\b(?:ich\s+garantiere|wir\s+garantieren|je\s+(?:vous\s+|te\s+)?garantis|nous\s+(?:vous\s+)?garantissons|"
        r"(?:le|te|les)\s+garantizo|garantizamos|ik\s+garandeer|wij\s+garanderen|we\s+garanderen)\b|"
        r"\bi(?:'ll|\s+will)\s+(?:personally\s+)?(?:make sure|ensure|guarantee)\s+(?:that\s+)?(?:you\s+(?:get|receive)|"
        r"your\s+(?:\$?[\d.,]+\s+)?refund|the\s+(?:full\s+)?refund)\b"
        # a refund "put through" already: done, whatever condition the sentence adds
        r"|\b(?:put|pushed)\s+(?:it|this|that|the\s+refund|your\s+refund)\s+through\b(?!\s+(?:the|your|a|an|our)\b)"
    ),
    # An email the store sends besides the return label and the reset link: no tool sends a confirmation,
    # a summary, a receipt or an invoice ("I've also sent a confirmation email with all the order details",
    # "You'll receive a confirmation email with your RMA number", "Sie erhalten in Kürze eine Bestätigung").
    # The customer's own confirmation email ("check your confirmation email") is none.
    "store_email": (
        r"\b(?:i|we)(?:'ve|\s+have)?\s+(?:just\s+|also\s+|already\s+)?(?:emailed|sent|texted|forwarded)\s+you\s+"
        r"(?:the|a|your)\s+tracking\s+(?:link|number|details|info\w*)\b|"
        rf"\b{_WE}\s+(?:sent|send|emailed|email|e-mailed|forwarded|forward|resent|re-sent|mailed|mail)\s+"
        r"(?:you\s+|it\s+)?(?:\S+\s+){0,3}?(?:confirmation|summary|receipt|invoice|recap|transcript|"
        r"copy of (?:the|your) (?:order|invoice|receipt)|(?:order|shipping) details)\b"
        r"|\byou(?:'ll|\s+will|\s+should)\s+(?:also\s+|soon\s+|shortly\s+|then\s+)*(?:receive|get)\s+"
        r"(?:\S+\s+){0,3}?(?:(?:confirmation|summary|receipt|invoice|recap|tracking details)\s+(?:e-?mail|by e-?mail)\b"
        r"|e-?mail\s+(?:with|containing)\s+(?:\S+\s+){0,3}?(?:confirmation|summary|receipt|invoice|recap|details)\b"
        r"|e-?mail\s+confirming\b"
        r"|e-?mail\s+(?:from us\s+)?(?:\S+\s+){0,4}?with\s+(?:the\s+)?(?:next steps|an update)\b)"
        r"|\b(?:a|an|the)\s+(?:\S+\s+){0,2}?(?:confirmation|summary|receipt|invoice)(?:\s+e-?mail)?\s+"
        r"(?:is|'s|has been|was|will be)\s+(?:now\s+|already\s+)?(?:on (?:its|the) way|sent|emailed|coming)\b"
        r"|\b(?:ich|wir)\s+(?:schick|schicke|schicken|sende|senden|maile)\s+(?:dir|ihnen|euch)\s+(?:\S+\s+){0,3}?"
        r"(?:bestätigung|zusammenfassung|rechnung|quittung)\w*"
        r"|\bbestätigung\s+(?:kommt|folgt|geht)\s+(?:\S+\s+){0,2}?per\s+(?:e-?)?mail\b"
        r"|\b(?:sie|du)\s+(?:erhalten|erhältst|bekommen|bekommst)\s+(?:\S+\s+){0,3}?(?:bestätigung|"
        r"zusammenfassung|rechnung|quittung)\w*"
        r"|\b(?:vous|tu)\s+(?:recevrez|recevras|allez recevoir|vas recevoir)\s+(?:\S+\s+){0,4}?(?:confirmation|"
        r"récapitulatif|facture|reçu)\b"
        r"|\brecibir(?:á|ás|án)\s+(?:\S+\s+){0,4}?(?:confirmación|resumen|factura|recibo)\b"
        r"|\b(?:je|nous)\s+(?:viens|venons)\s+de\s+(?:vous|t')\s*envoyer\s+(?:un|une)\s+(?:e-?mail|courriel|mail)\b"
        r"|\b(?:je|nous)\s+(?:vous|t')\s*(?:ai|avons)\s+(?:déjà\s+)?envoyé\s+(?:un|une)\s+(?:e-?mail|courriel|mail)\b"
        r"|\b(?:ich|wir)\s+(?:habe|haben)\s+(?:ihnen|dir)\s+(?:gerade\s+|eben\s+|soeben\s+|schon\s+)?eine\s+"
        r"(?:e-?mail|mail|nachricht)\b"
        r"|\b(?:te|le)\s+(?:he|hemos)\s+(?:enviado|mandado)\s+(?:ya\s+)?un\s+(?:correo|e-?mail|mensaje)\b"
        r"|\b(?:ik|we|wij)\s+(?:heb|hebben)\s+(?:je|u)\s+(?:net\s+|zojuist\s+|al\s+)?een\s+(?:e-?mail|mail|bericht)\b"
        r"|\b(?:u|je)\s+(?:ontvangt|krijgt)\s+(?:\S+\s+){0,3}?(?:bevestiging|samenvatting|factuur)\w*"
    ),
    "have_sent": (
        r"\b(?:i|we)(?:'ll|\s+will)\s+have\s+(?:a|an|the|your|some)\s+[^.!?]{0,40}?\b(?:sent|shipped|mailed|"
        r"emailed|delivered)\s+(?:to\s+you|out|over|your way|today|tomorrow|right away|immediately)\b"
        r"|\b(?:i|we)(?:'ll|\s+will)\s+have\s+(?:the|a|our|your)\s+(?:courier|carrier|driver|warehouse|team|colleague|"
        r"manager)\s+(?!look\b)[a-z]+"
    ),
    "escalation": (
        # someone else who will call or write: "A colleague from our customer care team will call you tomorrow"
        r"\b(?:colleague|specialist|supervisor|manager|agent|representative|someone|somebody|staff member|"
        r"(?:team\s+)?members?)\b"
        r"(?:\s+[\w-]+){0,5}?\s+(?:will|'ll|is going to)\s+(?:personally\s+)?(?:call|phone|ring|contact|reach out|"
        r"get back|email|follow up|be in touch|text|visit|give you a (?:call|ring|buzz)|drop you a (?:line|note))\b|"
        # (not "handing": the server's own handoff reply says "I'm handing this conversation to …")
        r"\b(?:i'm|i am|we're|we are)\s+(?:now\s+|just\s+)?(?:escalating|forwarding|passing|referring|"
        r"flagging|reporting)\s+(?:this|it|that|your\s+\w+|the\s+\w+|bk-\d+)\b|"
        rf"\b{_WE}\s+(?:escalated|forwarded|passed|handed|referred|flagged|reported|raised|escalate|forward|pass|"
        r"hand|refer|flag)\s+(?:this|it|that|your\s+\w+|the\s+\w+|bk-\d+)\b"
        r"|\b(?:escalated|passed on|passed along|forwarded|handed over|referred|flagged)\s+"
        r"(?:this\s+|it\s+|your\s+\w+\s+)?"
        r"(?:to|for)\s+(?:our|the|a)\s+(?:\w+\s+)?(?:team|specialist|supervisor|manager|colleague|staff|department|"
        r"review)\b"
        rf"|\b{_WE}\s+(?:asked|notified|alerted|told|looped in|messaged|contacted)\s+(?:a|the|our|my)\s+(?:\w+\s+)?"
        r"(?:manager|supervisor|team lead|specialist|colleague|team)\b"
        # someone else said to know already: "Our team has been notified", "My colleague in fulfilment already knows"
        r"|\b(?:our|the|my|a)\s+(?:\w+\s+)?(?:team|colleague|manager|supervisor|specialist|department)(?:\s+[\w-]+){0,3}?\s+"
        r"(?:has|have)\s+(?:already\s+|now\s+)?been\s+(?:notified|informed|alerted|told|made aware)\b"
        r"|\b(?:my|our|a)\s+colleagues?(?:\s+[\w-]+){0,3}?\s+(?:already\s+)?(?:knows?|is aware|are aware)\b"
        r"|\bon\s+(?:their|our|the team's)\s+radar\b"
        rf"|\b{_WE}\s+(?:let|made)\s+(?:our|the|my)\s+(?:\w+\s+)?(?:team|colleague|manager|supervisor|warehouse|department)s?"
        r"\s+(?:know|aware)\b"
        # a reminder or alert set where no tool writes one: "I've set a reminder to check on it on Friday"
        rf"|\b{_WE}\s+(?:set|set up|added|created|put in|scheduled|turned on|switched on)\s+(?:a|an)\s+(?:\w+\s+)?"
        r"(?:reminder|alert|follow-up|notification)s?\b"
        r"|\b(?:this|it|that|your\s+(?:\w+\s+)?(?:case|issue|request|complaint|order|problem)|the\s+(?:case|issue|matter|"
        r"problem|request|complaint))\s+(?:has been|was|'s been|is being|have been)\s+(?:escalated|flagged|forwarded|"
        r"passed on|passed along|referred|reported|raised|handed over)\b"
        r"|\b(?:our|the|a)\s+(?:\w+\s+)?(?:team|specialist|supervisor|manager|colleague|human|staff member|agent|"
        r"representative)\s+(?:will|'ll|is going to|are going to)\s+(?:contact|reach out|get back|email|call|follow up|"
        r"look into|review|be in touch)\b"
        r"|\b(?:a|the|our)\s+(?:\w+\s+)?(?:manager|supervisor|team lead|specialist|colleague)\s+"
        r"(?:calls|contacts|emails|reaches out to|gets back to|rings)\s+you\b"
        r"|\bsomeone\s+(?:from\s+(?:our|the)\s+(?:\w+\s+){1,3}?)?(?:will|'ll|is going to)\s+(?:personally\s+)?"
        r"(?:contact|reach out|get back|email|call|phone|ring|text|follow up|be in touch)\b"
    ),
}
# Any other action the assistant says it did or will do. Its possible actions are closed: it can look
# things up, prepare a return and (through the classes above) start one. A first-person verb in the
# past, perfect or future that is not one of those, nor talk ("explain", "need", "hope"), is an
# action no tool backs: "I've reinstated your order", "I'll keep an eye on it and message you".
_PARTICIPLE = (
    r"[a-z][a-z-]+ed|sent|made|put|set|given|gave|taken|took|got|gotten|kept|left|told|paid|written|wrote|spoken|"
    r"spoke|rang|resent|re-sent|reset|rebuilt|redone|undone|bought|brought|held|shut|cut|withdrawn|thrown|let|split"
)
AGENT_ACTION = (
    r"\b(?:i|we)(?:(?:'ll|\s+will)(?:\s+(?:now|just|also|then|happily|gladly|personally|quickly))*"
    r"\s+(?P<verb>[a-z][a-z'-]*[a-z])"
    r"|(?:'ve|\s+have|\s+just|\s+already|\s+also|\s+then)?"
    r"(?:\s+(?:now|just|already|also|gone ahead and|went ahead and|personally|quickly|then))*"
    rf"\s+(?P<past>{_PARTICIPLE}))(?=[\s,.!;:])(?!\s+(?:nothing|none)\b|\s+you\s+(?:on|about|in)\b|(?<=left)\s+off\b)"
)
# A second action joined to the first with its subject left out: "I've emailed you the label and booked a
# courier pickup", "we already checked it and refunded the difference" (read up to the clause's end).
COORDINATED_ACTION = (
    rf"[^.;:!?]*?\band\s+(?:also\s+|then\s+|even\s+|already\s+|just\s+)?(?P<past>{_PARTICIPLE})(?=[\s,.!;:])"
)
AGENT_VERBS_BACKED = _word_set(
    # looking up and reading
    "look looked looking check checked checking double-check double-checked find found search searched see saw "
    "pull pulled verify verified confirm confirmed review reviewed go went gone read tried try "
    # talking to the customer
    "be been am was were explain explained walk need needed ask asked let help helped hope understand "
    "understood know think suggest recommend mention mentioned repeat say said tell told figure "
    "reply answer answered share shared use used get got wait waited stay stop take took taken sort can could "
    "cannot can't couldn't would wouldn't should won't don't didn't haven't hasn't do did have had "
    "appreciate apologise apologize love like want wanted make sure happy glad sorry afraid corrected "
    "put note queued queue mixed misread misunderstood confused mistyped "
    # what the classes above and the policy decide: returns, refunds, labels, shipping
    "prepare prepared set start started initiate initiated create created return returned refund refunded "
    "process processed issue issued send sent email emailed ship shipped receive received deliver "
    "delivered inspect inspected credit credited charge charged "
    # drafting what the customer will confirm, noting what they said (on their account: UNBACKED_COMMITMENTS)
    "draft drafted noted jotted"
)
# What a reply says it did to a return it prepared again ("I've updated it", "I've changed the return").
REVISION_VERBS = _word_set("updated changed adjusted amended revised modified added")
# Handing the conversation to a person is the reply step's own "handoff" intent, so offering it when the
# customer asks ("just say so and I'll hand the chat over", "If you'd like, I can bring in a colleague") is
# no promise of something no tool does.
HANDOFF_VERBS = _word_set("hand pass transfer connect bring loop put escalate forward refer")
CUSTOMER_REQUEST = (
    r"\bif\s+you(?:'d|\s+would)?\s+(?:like|prefer|want|rather|wish)\b|\bshould\s+you\s+(?:want|wish|prefer)\b"
    r"|\b(?:say|tell me|let me know|say the word|give me a shout)\b(?:\s+so)?\s*,?\s+and\b|\bwhenever\s+you\b"
)
# The same closed list for the store's other four languages, read from the first-person perfect
# ("Ich habe … gestartet", "J'ai lancé", "He tramitado", "Ik heb … verwerkt"): a participle that is not
# looking up, preparing or talking is an action no tool backs; starting or creating a return is backed
# when the thread wrote one.
OTHER_LANGUAGE_ACTION = (
    # (greedy: the last participle of the clause, "habe … vorbereitet und Ihnen das Etikett geschickt"; an
    # amount's decimal point is no end of it, "habe Ihre Rückerstattung über $15.00 veranlasst")
    r"\b(?:ich|wir)\s+(?:habe|haben|hab)\b(?:[^.!?;:]|[.,](?=\d)){0,100}\b(ge[a-zäöüß]+(?:t|en)|[a-zäöüß]+(?:iert|tet|gen|ben)|"
    r"(?:um|auf|ab|an|aus|ein|zurück|weiter|frei|hoch|nach|vor|mit|fest|durch|weg|zu)ge[a-zäöüß]+(?:t|en)|"
    r"(?:ver|be|er|ent|zer|über)[a-zäöüß]{3,}(?:t|en))\b"
    r"(?=\s*[.!?,;:]|\s+(?:damit|sodass|weil|und|aber)\s|$)"
    r"|\b(?:j'ai|nous avons|je (?:vous|t'|te|lui|leur|l')\s*ai|nous (?:vous|lui|leur|l')\s*avons)\s+"
    # ("j'ai aussi besoin de …": an adverb is no participle)
    r"(?:bien\s+|déjà\s+|aussi\s+)?(?!(?:aussi|bien|déjà|besoin|encore|toujours|juste|vraiment|ici)\b)"
    r"([a-zàâçéèêëîïôûù]+(?:é|i|u|is|it)e?s?|ouverte?s?|offerte?s?)\b"
    r"|\b(?:ya\s+)?(?:he|hemos)\s+(?:ya\s+)?([a-záéíóúñ]+(?:ado|ido)|abierto|escrito|hecho|puesto|devuelto|resuelto)\b"
    # the preterite of an action: "Ya cancelé el pedido", "ya abrí una reclamación"
    r"|\bya\s+(?:le\s+|te\s+|lo\s+|la\s+)?((?:cancel|abr|envi|inici|cre|tramit|proces|solicit|registr|aprob|reembols|"
    r"escal|avis|notific|gestion|cambi|modific)(?:é|í))\b"
    # the perfect with the subject after its verb: "Die Erstattung habe ich bereits veranlasst", "heb ik … goedgekeurd"
    r"|\b(?:habe ich|haben wir)\b(?:[^.!?;:]|[.,](?=\d)){0,60}?\b((?:ver|be|er|ent|ge)[a-zäöüß]{3,}(?:t|en))\b"
    r"(?=\s*[.!?,;:]|\s+(?:damit|sodass|und|aber)\s|$)"
    r"|\b(?:heb ik|hebben we|hebben wij)\b(?:[^.!?;:]|[.,](?=\d)){0,60}?"
    r"\b((?:[a-z]+)?(?:ge|ver|be|her|ont)[a-zäëïöü]+(?:d|t|en))\b"
    r"(?=\s*[.!?,;:]|\s+(?:zodat|omdat|want|en|maar)\s|$)"
    # what was just done, said with an infinitive: "je viens de vous envoyer l'étiquette", "acabo de enviarle"
    r"|\b(?:je\s+viens|nous\s+venons)\s+d[e']\s*(?:vous\s+|te\s+|t'|lui\s+|leur\s+|l')?([a-zàâçéèêëîïôûù]+(?:er|ir|re))\b"
    r"|\b(?:acabo|acabamos)\s+de\s+([a-záéíóúñ]+(?:ar|er|ir))(?:le|les|lo|la|los|las|se)?\b"
    r"|\b(?:ik|we|wij)\s+(?:heb|hebben)\b(?:[^.!?;:]|[.,](?=\d)){0,60}?\b((?:[a-z]+)?(?:ge|ver|be|her|ont)[a-zäëïöü]+(?:d|t|en))\b"
    r"(?=\s*[.!?,;:]|\s+(?:naar|voor|aan|met|op|bij|over|tegen|zodat|omdat|want|en|maar|om)\s|$)"
)
OTHER_LANGUAGE_VERBS_BACKED = _word_set(
    "nachgesehen geprüft überprüft gefunden vorbereitet gesehen gefragt verstanden erhalten bekommen gelesen "
    "kontrolliert nachgeschaut angeschaut recherchiert gesucht notiert klaargezet bereitgestellt "
    "vérifié trouvé préparé regardé consulté reçu compris cherché noté anotado genoteerd "
    "revisado comprobado encontrado preparado buscado consultado recibido entendido mirado verificado "
    "gecontroleerd gevonden voorbereid bekeken nagekeken opgezocht gezien ontvangen begrepen gelezen gezocht gekeken "
    "geschaut nachgeschaut "
    "vérifier regarder consulter préparer trouver chercher recevoir revisar comprobar preparar buscar mirar verificar "
    "consultar encontrar recibir"
)
OTHER_LANGUAGE_RETURN_STARTED = _word_set(
    "gestartet erstellt angelegt eingeleitet lancé créé initié iniciado creado gestart aangemaakt aangevraagd "
    # sending the label is what a written return does
    "gesendet geschickt zugeschickt envoyé envoyée enviado enviada verstuurd gestuurd "
    "lancer créer initier envoyer iniciar crear enviar"
)
# An order's contents listed after a verb of holding or a colon: "BK-40317 had three books: A, B and C",
# "BK-62077 contains A and B", "Everything is returnable until June 9: A, B and C".
CONTENTS_LEAD = (
    # what a parcel went out or arrived with: "BK-14607 has shipped with The Women and The Nightingale"
    r"\bin\s+(?:the|your)\s+(?:parcel|package|box|order|shipment)\s+(?:were|was|are|is)\b|"
    r"\bbk-?\d+,?\s+(?:with|mit|avec|con|met)\b|"
    r"\b(?:(?:has|have|had|was|were)\s+)?(?:shipped|arrived|been delivered|delivered|came|went out|was sent|were sent)"
    r"(?:\s+on\s+[^,.;:]{1,25}?)?\s+with\b|"
    r"\b(?:had|has|have|holds?|held|contains?|contained|includes?|included|including|consists? of|consisted of|"
    r"comprises?|comprised|enthält|enthielt|umfasst|umfasste|bestand aus|besteht aus|contient|contenait|comprend|"
    r"comprenait|contiene|contenía|incluye|incluía|bevat|bevatte|bestaat uit|bestond uit|zaten|zat)\b|:"
)
# Where a list of titles is split: commas, "and" in the five languages, ampersands.
# ("…, plus Thinking, Fast and Slow": an item added to the list is an entry of it)
CONTENTS_SEPARATOR = (
    r",?\s+(?:plus|as well as|along with|sowie|ainsi que|así como|además de)\s+"
    r"|,\s*|\s+(?:and|und|et|y|e|en)\s+|\s*&\s*"
)

# A claim about how many returns or refunds there are.
RETURN_COUNT = (
    # ("you've picked 2 to return" counts books, not returns)
    # ("those two would refund" is two books and what they refund)
    # ("excludes both from returns" says where they are not)
    r"\b(?:both|two|2|second|another|double|duplicate)\s+"
    r"(?:(?!to\b|would\b|will\b|could\b|can\b|should\b|might\b|from\b)\w+\s+)?"
    r"(?:returns?|refunds?|rmas?)\b"
    r"|\b(?:returns?|refunds?)\b[^.!?]{0,30}\btwice\b"
)
# A return window or eligibility stated for an order.
ELIGIBLE_CLAIM = (
    r"\b(?:still\s+)?(?:within|inside)\s+(?:the|its|your)\s+(?:\d+-day\s+)?(?:return\s+)?window\b"
    r"|\b(?:is|are)\s+(?:still\s+)?(?:eligible|returnable)\b|\bcan\s+(?:still\s+)?(?:be returned|go back)\b"
    r"|\bqualif(?:y|ies)\s+for\s+(?:a\s+)?(?:return|refund)\b"
    # "the return window is still open", "you still have a few days to return it", "you can send it back"
    r"|\b(?:window|deadline)\b[^.!?]{0,30}\b(?:is|remains|stays)\s+(?:still\s+)?open\b"
    r"|\bstill\s+(?:have|got)\s+(?:a\s+few\s+days|some\s+time|time|\w+\s+days?|a\s+week|until)\b"
    r"|\byou\s+can\s+(?:still\s+)?(?:send|return)\b"
    # German, French, Spanish, Dutch: "kann noch zurückgegeben werden", "vous pouvez encore le retourner",
    # "todavía puedes devolverlo", "kunt u nog retourneren".
    r"|\bk(?:ann|önnen|annst)\s+(?:\S+\s+){0,7}?zurück(?:gegeben|geschickt|gesendet|geben|schicken|senden)\b"
    r"|\b(?:ist|sind)\s+(?:noch\s+)?(?:rückgabeberechtigt|rückgabefähig)\b"
    r"|\bpeu(?:t|vent|x)\s+(?:encore\s+|toujours\s+)?(?:être\s+)?(?:retourné|renvoyé)e?s?\b"
    r"|\bpouvez\s+(?:encore\s+|toujours\s+)?(?:le\s+|la\s+|les\s+|l')?(?:retourner|renvoyer)\b"
    r"|\b(?:est|sont)\s+(?:encore\s+|toujours\s+)?(?:retournables?|éligibles?)\b"
    r"|\b(?:puedes?|pueden|podéis)\s+(?:todavía\s+|aún\s+)?devolver\w*|\bse\s+(?:puede|pueden)\s+(?:todavía\s+|aún\s+)?devolver\b"
    r"|\b(?:es|son)\s+(?:todavía\s+|aún\s+)?(?:elegibles?|retornables?)\b"
    r"|\bkan\s+(?:\S+\s+){0,3}?(?:geretourneerd|teruggestuurd)\s+worden\b"
    r"|\bkun(?:t|nen|\s+je)\s+(?:\S+\s+){0,3}?(?:retourneren|terugsturen)\b|\b(?:is|zijn)\s+(?:nog\s+)?retourneerbaar\b"
)
# "Everything in BK-31407", "all three books": a claim about every item of an order.
EVERY_ITEM = (
    r"\b(?:everything|all (?:of )?(?:the |your |\w+ )?(?:books|items|titles)|every (?:book|item))\b"
    r"|\b(?:alle (?:\w+ )?(?:artikel|bücher|titel|artikelen|boeken)|tous les (?:\w+ )?(?:articles|livres)|"
    r"todos los (?:\w+ )?(?:artículos|libros)|tout|alles)\b"
)
# Both of two items, in the five languages: "Puedes devolver los dos artículos".
BOTH_ITEMS = r"\b(?:both|los dos|las dos|ambos|ambas|les deux|tous les deux|beide|beiden|allebei|alle beide)\b"
# What a status is said of, when the sentence names no order: the order, the parcel, "it", "they".
ORDER_SUBJECT = (
    r"\b(?:orders?|it|they|package|parcel|shipment|purchase|books?|items?|everything|bestellung|sie|es|paket|"
    r"sendung|commande|colis|elle|pedido|paquete|envío|bestelling|pakket|zending|hij|ze)\b"
)
# The event a date is written for: "delivered on May 9", "le 15 janvier livrée", "am 17. April zugestellt",
# "placed on Nov 16", "shipped on the 3rd". A date in a role must be that role's date of the thread: a
# delivery date, an order date; no tool gives a shipping date, so a date written as one is never grounded.
# (the status words of an order, and a few more forms of the event)
_DELIVERED = ORDER_STATUS_WORDS["delivered"] + r"|dropped off|llegó|llegaron|entregó|entregaron"
_ORDERED = r"ordered|placed|bestellt|aufgegeben|commandée?s?|passée?s?|realizad[oa]|besteld|geplaatst"
_SHIPPED = ORDER_STATUS_WORDS["shipped"] + r"|sent out|went out|left (?:our|the) warehouse"
# A date the gap bends into a deadline, an estimate or another event is not the event's date.
_ROLE_GAP = (
    r"(?:(?!\b(?:until|till|by|before|after|since|from|within|between|and|or|not|expected|estimated|bis|vor|nach|"
    r"seit|und|jusqu|avant|après|depuis|et|hasta|antes|después|desde|y|tot|voor|na|sinds|vanaf|en)\b)"
    r"[^.!?,;:(\d])"  # (a parenthesis opens another phrase: "enviado (del 2026-09-18)" is the order's date)
)
_DATE_ROLES = (("delivered", _DELIVERED), ("ordered", _ORDERED), ("shipped", _SHIPPED))
# A shipping day no result gives: "it went out on Monday", "shipped last Friday".
SHIPPED_ON_DAY = rf"\b(?:{_SHIPPED})\s+(?:on\s+)?(?:last\s+)?(?:{_WEEKDAY})\b"
DATE_ROLE_BEFORE = {role: rf"\b(?:{words})\b{_ROLE_GAP}{{0,24}}$" for role, words in _DATE_ROLES}
# The last day of a return window: "The window ends January 11", "die Rückgabefrist läuft bis zum 20. Januar".
DATE_ROLE_BEFORE["window_end"] = (
    r"\b(?:window|frist|rückgabefrist|retourfrist|fenêtre|délai|plazo|termijn|retourtermijn)\b[^.!?;:(\d]{0,20}?"
    r"\b(?:ends?|ended|closes?|closed|expires?|runs?\s+(?:until|till|through|to)|(?:is\s+)?open\s+(?:until|till|through)|"
    r"endet|läuft\s+(?:bis|ab)|schließt|se termine|ferme|expire|court\s+jusqu|vence|termina|cierra|sluit|eindigt|"
    r"loopt\s+(?:tot|af))\b[^.!?;:(\d]{0,12}$"
)
# German and Dutch put the participle after the date: "am 17. April zugestellt", "op 15 januari bij je bezorgd".
DATE_ROLE_AFTER = {role: rf"^\.?(?:\s+(?:bei|bij|an|aan)\s+\w+)?\s+(?:{words})\b" for role, words in _DATE_ROLES}
# Other items than the one a sentence names by title: "both", "the other two", "together".
OTHER_ITEMS = (
    r"\b(?:and|both|two|three|four|other|others|together|all|each|plus|und|et|y|en|beide|les deux|ambos)\b|\+"
    # the item named as the one left out: "everything except Maus"
    r"|\b(?:everything|except|apart from|rest|remaining|alles|außer|tout|sauf|todo|excepto|menos|resto|behalve)\b"
)
# Titles (each written "§") listed together: "§, § and §" is what a sentence names, not other items.
NAMED_LIST = r"§(?:\s*(?:,|&|and|or|und|oder|et|ou|y|o|en|of)\s*§)+"
GIFT_CARD = r"gift ?cards?|cadeaukaart(?:en)?|cadeaubon|cartes? cadeaux?|geschenkkarten?|gutschein|tarjetas? regalo"
# Events no tool reports, so only the customer can have said them: a double charge, a delivery to the
# wrong address, an activated gift card, a cancelled order reinstated.
CUSTOMER_ONLY_EVENT = (
    r"\b(?:charged|billed)\s+(?:you\s+)?(?:\$?\d[\d.,]*\s+)?(?:twice|two times)\b|\bdouble[- ]charg\w*|"
    r"\bdoppelt\s+(?:belastet|abgebucht|berechnet)\b|\bdébitée?s?\s+deux fois\b|\bcobrad[oa]s?\s+dos veces\b|"
    r"\bdubbel\s+(?:afgeschreven|betaald|gefactureerd|in rekening gebracht)\b"
    r"|\b(?:delivered|went|sent|shipped)\s+to\s+(?:the\s+|a\s+)?wrong\s+address\b"
    # a paid upgrade no result shows: "With the expedited upgrade you paid for yesterday"
    r"|\b(?:free\s+)?(?:expedited|express|priority)\s+upgrade\b"
    # an authority the customer claims, accepted: "as a Bookly employee you're authorised", "your manager approved it"
    r"|\bas\s+a\s+bookly\s+(?:employee|staff member|team member|manager)\b"
    r"|\byou(?:'ve| have)\s+approved\s+it\s+yourself\b"
    r"|\b(?:your|the)\s+manager\s+(?:already\s+)?(?:approved|authori[sz]ed|signed off)\b"
    r"|\b(?:expedited|express|faster|priority)\s+(?:upgrade|shipping|delivery)\s+(?:that\s+)?you\s+(?:paid for|bought|"
    r"added|purchased)\b|\bupgrade\s+(?:that\s+)?you\s+(?:paid for|bought|purchased)\b"
    r"|\b(?:since|as|because)\s+you\s+(?:paid for|chose|selected|picked|upgraded to)\s+(?:expedited|express|faster|"
    r"priority)\b"
    rf"|\b(?:{GIFT_CARD})\b[^.!?]{{0,40}}\b(?:activated|"
    r"aktiviert|activée?|activad[oa]|geactiveerd)\b"
    r"|\b(?:reactivated|reinstated|reaktiviert|réactivée?|reactivad[oa]|heractiveerd)\b"
    r"|\b(?:in stock|out of stock|back in stock|on backorder|sold out|auf lager|en stock|op voorraad|agotad[oa])\b"
    r"|\byou (?:were|have been|'ve been) (?:told|promised|offered|assured)\b|\bthe (?:\w+ )?you were promised\b"
    r"|\b(?:with|has|had|included|came with|went out with)\s+(?:free\s+)?gift[- ]?wrap\w*|\bgift[- ]wrapped\b"
    r"|\bpayment\s+(?:was\s+)?(?:declined|failed|bounced|rejected)\b|\bcard\s+was\s+declined\b"
    # (the negation is the event's own: read ahead of the match, so the claim is not taken as denied)
    r"|\bpayment\s+(?=(?:didn't|did not|never|couldn't|could not)\s+go\s+through\b)"
    # a delivery address: no tool result has one
    r"|\b(?:to|at)\s+(?:the|your)\s+address\s+(?:ending|that ends)\s+(?:in|with)\b"
    r"|\b(?:plus|with|and)\s+a\s+free\s+(?:bookmark|tote|poster|sticker|notebook|gift)\w*(?:\s+set)?\b"
    r"|\bas\s+a\s+gift\s+order\b|\bjust\s+as\s+you\s+(?:selected|chose|asked|requested)\b"
    r"|\bcomo\s+(?:te|le|les)\s+(?:dijeron|comentaron|prometieron|indicaron)\b|\bwie\s+man\s+(?:ihnen|dir)\s+"
    r"(?:gesagt|versprochen)\b|\bcomme\s+(?:on|le service(?: client)?|notre équipe|mon collègue|ma collègue)\s+"
    r"(?:vous|t)['’]?\s*(?:l['’]\s*)?a\s+(?:dit|promis|confirmé|annoncé)\b"
    r"|\bwie\s+(?:ihnen|dir)\s+(?:\S+\s+){0,3}?(?:bestätigt|zugesagt|versprochen)\s+wurde\b"
    # the customer's promised date repeated as the order's: "Since BK-14052 was promised for delivery by Wednesday"
    r"|\b(?:was|were)\s+promised\s+(?:for|by)\b"
    r"|\b(?:omdat|aangezien)\s+(?:je|u)\s+(?:voor\s+)?(?:expres|spoed)\w*\s+(?:hebt|heeft)\s+(?:betaald|gekozen)\b"
    r"|\b(?:da|weil)\s+(?:sie|du)\s+(?:den\s+|für\s+)?express\w*\s+(?:bezahlt|gewählt|gebucht)\b"
    r"|\b(?:comme|puisque|parce que)\s+(?:vous avez|tu as)\s+(?:payé|choisi)\s+(?:pour\s+)?(?:la\s+|l['’])?"
    r"(?:livraison|envoi)\s+express\b"
    r"|\b(?:como|ya que|porque)\s+(?:pagaste|pagó|elegiste|eligió)\s+(?:por\s+)?(?:el\s+)?envío\s+"
    r"(?:exprés|express|urgente)\b"
    r"|\bzoals\s+(?:je|u|jou)\s+(?:is|werd)\s+(?:verteld|beloofd)\b"
    r"|\bwe(?:'ve| have)?\s+(?:already\s+)?received\s+(?:your|the)\s+(?:return|parcel|package|books?|items?)\b"
    r"|\bnow\s+that\s+we(?:'ve| have)\s+received\s+(?:it|them)\b"
    # a title received back: "since we've received The Goldfinch"
    r"|\bwe(?:'ve| have)\s+(?:already\s+)?received\s+(?-i:[A-Z])"
    # where the parcel goes: no result holds an address ("on its way to your address in Rotterdam")
    r"|\b(?:to|at)\s+your\s+(?:address|home|place|house|flat|apartment)\s+in\s+(?-i:[A-Z])"
    # a colleague's promise, confirmed: "Ihr Kollege hat Ihnen die Erstattung … zugesagt"
    r"|\b(?:ihr|dein)e?\s+(?:kollege|kollegin)\b(?:[^.!?]|\.(?=\d)){0,60}\b(?:zugesagt|versprochen|bestätigt|"
    r"genehmigt)\b"
    r"|\b(?:my|our|your)\s+colleague\s+(?:already\s+)?(?:promised|approved|confirmed|agreed to|offered)\b"
    r"|\b(?:votre|ton|mon|notre)\s+collègue\b(?:[^.!?]|\.(?=\d)){0,60}\b(?:promis|accordé|confirmé|validé)\b"
    r"|\b(?:tu|su|mi|nuestro|el|la)\s+compañer[oa]\b(?:[^.!?]|\.(?=\d)){0,60}\b(?:prometió|aprobó|confirmó|prometido|"
    r"aprobado)\b"
    r"|\b(?:je|uw|mijn|onze)\s+collega\b(?:[^.!?]|\.(?=\d)){0,60}\b(?:beloofd|toegezegd|goedgekeurd|bevestigd)\b"
    # the email an order was placed with: a lookup that finds nothing says no more than that
    # ("it's possible it was placed with a different email" is a guess; "that order exists, but …" is a claim)
    r"|\b(?:exists|existe|existiert|bestaat)\b[^.!?]{0,50}?\b(?:under|with|avec|mit|con|met|onder)\s+(?:a\s+|une\s+|"
    r"einer\s+|otro\s+|een\s+)?(?:different|another|other|autre|anderen|ander)\s+(?:adresse\s+)?(?:email|e-mail|"
    r"adresse|correo)\b"
    # an item missing from a delivery: no result reports one
    r"|\b(?:was|were|is|are)\s+missing\s+from\s+(?:the|your|\w+'s)\s+(?:\w+\s+)?(?:delivery|parcel|package|box|order|"
    r"shipment)\b"
    # a cause of a delay no result gives: "held up by a warehouse backlog"
    r"|\b(?:held up|delayed|slowed(?: down)?)\s+(?:\w+\s+){0,2}?by\s+(?:a\s+|the\s+|our\s+)?(?:warehouse|fulfil?lment|"
    r"processing|staffing)\s+(?:backlog|delay|issue|problem|shortage)\b"
    r"|\b(?:your|the)\s+(?:return|parcel|package)\s+(?:has|was)\s+(?:already\s+)?(?:been\s+)?received\b"
    r"|\b(?:they're|they are|it's|it is)\s+(?:already\s+)?on\s+(?:their|its)\s+way\s+(?:back\s+)?to\s+us\b"
    r"|\brefund\b[^.!?]{0,20}?\b(?:from|of|issued|sent)\s+(?:yesterday|last\s+(?:week|night|\w+day)|earlier today|"
    r"this morning)\b"
    rf"|\b(?:is arriving|arrives|will arrive|should arrive|llega|llegará|arrivera|kommt|komt)\b[^.!?]{{0,25}}"
    rf"\b(?:{_WEEKDAY}|lunes|martes|miércoles|jueves|viernes|sábado|domingo|montag|dienstag|mittwoch|donnerstag|"
    r"freitag|samstag|sonntag|lundi|mardi|mercredi|jeudi|vendredi|samedi|dimanche|maandag|dinsdag|woensdag|"
    r"donderdag|vrijdag|zaterdag|zondag)\b"
)
# An amount in a hypothetical: "a $20 order wouldn't qualify", "ein Buch für 20 € würde …" is no fact.
HYPOTHETICAL_AMOUNT = (
    r"\b(?:a|an)\s+(?:\$\s?\d+(?:[.,]\d{2})?|\d+(?:[.,]\d{2})?\s?(?:\$|€|dollars?|euros?))\s+"
    r"(?:order|book|purchase)\s+(?:would|wouldn't|won't|will|doesn't|does not|would not|isn't|is not|qualifies|needs)\b"
    # "so at $20 it wouldn't be free yet"
    r"|\bat\s+\$\s?\d+(?:[.,]\d{2})?,?\s+(?:it|that|the order|your order)\s+(?:would|wouldn't|won't|doesn't|isn't|"
    r"does not|is not|would not)\b"
)
# An example address written to show the form, not anyone's address.
PLACEHOLDER_EMAIL = (
    r"(?<![\w.+-])(?:name|you|your\.?name|your\.?email|email|firstname\.lastname|vorname\.nachname|"
    r"prenom\.nom|nombre|naam)@(?:example|dominio|domain|beispiel|exemple|ejemplo|voorbeeld)\.(?:com|org|net|de|fr|es|nl)\b"
)
# Where the store keeps its stock: no tool result names a warehouse, so a named place is invented.
STORE_PLACE = (
    r"\b(?:warehouse|distribution cent(?:er|re)|fulfil?ment cent(?:er|re)|almac[eé]n|entrep[oô]t|lager|magazijn)"
    r"\s+(?:in|at|de|en|à|te|im|van)\s+(?-i:[A-Z])\w+"
    r"|\b(?:our|nuestro|notre|unserem|unser|ons)\s+(?-i:[A-Z])\w+(?:,?\s+(?-i:[A-Z])\w+)?\s+"
    r"(?:warehouse|distribution cent(?:er|re)|fulfil?ment cent(?:er|re))\b"
    r"|\b(?:warehouse|store|shop|office|depot|headquarters|us)\s+(?:at|on)\s+\d{1,5}\s+(?:(?-i:[A-Z])\w+\s+){1,3}"
    r"(?-i:Drive|Street|St\b|Avenue|Ave\b|Road|Rd\b|Boulevard|Blvd\b|Lane|Way|Parkway|Place|Court)"
)
# A street address, in the five languages' forms: "42 Maple Street", "Hauptstraße 12", "12 rue de la Paix",
# "Calle Mayor 5", "Kerkstraat 8". (Case-sensitive: a street's name is capitalised.)
_STREET_NAME = r"[A-ZÄÖÜÉ][\w'-]+"
STREET_ADDRESS = (
    rf"\b\d{{1,5}}\s+(?:{_STREET_NAME}\s+){{1,3}}(?:Street|St\.|Avenue|Ave\.|Road|Rd\.|Lane|Drive|Boulevard|Blvd|Way|"
    r"Court|Place|Terrace|Crescent|Close)\b"
    r"|\b[A-ZÄÖÜ][\wäöüß-]*(?:straße|strasse|str\.|weg|allee|platz|gasse|straat|laan|plein|gracht|kade|singel)\s+\d{1,4}\b"
    r"|\b\d{1,4},?\s+(?:rue|avenue|boulevard|chemin|allée|place|quai)\s+(?:d[eu']\s*|de la\s+|des\s+)?[A-ZÉ][\w'-]+"
    r"|\b(?:Calle|Avenida|Paseo|Plaza|C/)\s+(?:de\s+(?:la\s+)?)?[A-ZÁÉÍÓÚ][\w-]+(?:\s+[A-ZÁÉÍÓÚ][\w-]+)?,?\s+\d{1,4}\b"
)
# An item's format or edition: no tool result gives one, so only the item's own title may state it.
ITEM_FORMAT = (
    r"\b(?:hardcover|hardback|paperback|softcover|first edition|signed (?:copy|edition)|large[- ]print|"
    r"collector's edition|gebundene ausgabe|taschenbuch|broché|relié|tapa (?:dura|blanda)|edición de bolsillo|"
    r"gebonden|paperback-editie)\b"
)
# A card brand: the one a reply names must be the card of the refund method a tool gave.
CARD_BRAND = r"\b(?:visa|mastercard|master card|amex|american express|(?-i:Discover))\b"  # "you'll discover" is none
# What sits between an item's title and its price: "Paper Moons ($12.99)", "Paper Moons for $12.99" (a
# comma or a colon may open a list of amounts: "A and B: $35.00 + $8.99").
TITLE_PRICE_GAP = (
    r"\s*\(\s*|\s+(?:for|at|was|is|costs?|cost|came to|comes to|priced at|kostet|kostete|coûte|coûtait|à|cuesta|costó|"
    r"por|kost|kostte|"
    r"voor|für|zu)\s+(?:only\s+|just\s+)?"
)

# A card's last digits.
# (any language's way of saying "ending": "se terminant par 6640", "endet auf 4417", "terminada en 0077",
# "eindigend op 1460"; a card's four digits are the only four-digit group written that close to it)
CARD_DIGITS = (
    r"\b(?:card|carte|karte|kreditkarte|tarjeta|kaart|creditcard|visa|mastercard|amex|american express|discover|"
    r"debit|credit)\b[^.!?\d$€]{0,30}?(?<![-\w])(?P<digits>\d{4})\b(?![.,]\d)"
)

RETURN_PREPARED = (
    rf"\b{_WE}\s+(?:now\s+|just\s+)?(?:prepared|set up|drafted|put together)\s+(?:a|the|your|this)\s+(?:\w+\s+){{0,2}}?"
    r"returns?\b|\breturns?\b(?:\s+[^\s.!?]+){0,6}?\s+(?:is|'s)\s+(?:now\s+)?ready\s+(?:for\s+you\s+)?to\s+(?:confirm|review)"
    # "The return for The Name of the Rose is ready now. Just confirm it in the app."
    r"|\breturns?\b(?:\s+[^\s.!?]+){0,6}?\s+(?:is|'s)\s+(?:now\s+|all\s+)?ready(?:\s+now)?\s*[.!]"
)

# A prepared return described as waiting for the customer ("once you confirm", "please review and
# confirm it"): what it will do then is backed by the pending return. "I've confirmed it" is not this.
AWAITING_CONFIRMATION = (
    r"\b(?:once|when|after|if|as soon as)\s+you(?:'ve|\s+have)?\s+(?:confirm|review|approve|accept)\w*"
    r"|\b(?:please|just|can you|could you)\s+(?:\w+\s+){0,2}?(?:confirm|review)\b"
    r"|\bwaiting\s+(?:for|on)\s+(?:your|you)\b|\bawait\w*\s+(?:your|you)\b|\byour\s+(?:confirmation|ok|go-ahead)\b"
    r"|\bfor\s+you\s+to\s+(?:confirm|review|approve)\b|\bready\s+(?:for\s+you\s+)?to\s+(?:confirm|review)\b"
    r"|\bneeds?\s+(?:your\s+)?confirm\w*|\bconfirm\s+(?:it|this|the return|below|in the app|on (?:your|the) screen)\b"
    r"|\bpending\b"
    # German, French, Spanish, Dutch: "Nach Ihrer Bestätigung", "une fois que vous aurez confirmé", "tras su
    # confirmación", "zodra u bevestigt"
    r"|\b(?:ihre|ihrer|deine|deiner|votre|ta|su|tu|uw|je|jouw)\s+(?:bestätigung|confirmation|confirmación|bevestiging)\b"
    r"|\b(?:sobald|wenn|nachdem)\s+(?:sie|du)\s+(?:\w+\s+){0,4}?bestätig\w*"
    r"|\b(?:une fois que|dès que|quand|lorsque|après que)\s+(?:vous|tu)\s+(?:\w+\s+){0,3}?confirm\w*"
    r"|\b(?:cuando|una vez que|en cuanto|después de que|tan pronto como)\s+(?:\w+\s+){0,3}?confirm\w*"
    r"|\b(?:zodra|als|wanneer|nadat)\s+(?:u|je|jij)\s+(?:\w+\s+){0,4}?bevestig\w*"
)

# A refund statement conditioned on the warehouse receiving the return ("is issued once we receive it")
# states the policy, not a refund that happened.
RECEIPT_CONDITION = (
    r"\b(?:once|after|when|as soon as|of)\s+(?:we|us|the warehouse|our warehouse|it|they|the books?|your return|"
    r"the return|the parcel|your parcel)\s+(?:\w+\s+)?(?:receiv\w*|arriv\w*|gets?\s+back|reach\w*|check\w*)"
    # "après réception du retour", "nach Eingang der Rücksendung", "tras recibir el libro", "na ontvangst"
    r"|\b(?:après|dès)\s+(?:la\s+)?réception\b|\bune fois (?:le|les|votre)\s+\w+\s+reçus?\b"
    r"|\bnach\s+(?:dem\s+)?(?:eingang|erhalt)\b|\bsobald\s+(?:wir|die|das|ihre)\b[^.!?]{0,30}?\b(?:erhalten|eingegangen|ankommt)\b"
    r"|\b(?:tras|después de)\s+(?:la\s+)?(?:recepción|recibir)\b|\buna vez (?:que\s+)?recibid[oa]s?\b"
    r"|\bna\s+(?:de\s+)?ontvangst\b|\bzodra\s+(?:we|wij)\b[^.!?]{0,30}?\bontvangen\b"
    r"|\bzodra\s+(?:de|uw|je)\s+(?:retour|zending|pakket|boeken?)\b[^.!?]{0,30}?\b(?:binnen|ontvangen|aangekomen)\b"
)

# A sentence is not a commitment when the clause before the match negates it ("I can't cancel it")...
NEGATION = (
    # ("No problem —", "no worries": a courtesy, not a denial)
    r"\b(?:not|never|no(?!\s+(?:problem|worries|trouble|bother)\b)|nothing|none|neither|nor|unable|cannot|can't|won't|"
    r"haven't|hasn't|isn't|wasn't|don't|doesn't|didn't)\b|n't\b"
    # the store's other four languages
    r"|\b(?:nicht|nichts|nie|kein\w*|pas|rien|jamais|aucune?|nunca|nada|ningún|ninguna|niet|niets|nooit|geen)\b"
)
# What two or more named items come to: "A and B, $36.98 in total", "Together they'd come to $37.98".
TOTAL_WORDS = (
    r"together|in total|altogether|combined|zusammen|insgesamt|samen|in totaal|ensemble|au total|en tout|juntos|"
    r"juntas|en total"
)
# Something allowed only on a condition: "can only be returned once it's delivered", "solo se puede devolver una
# vez entregado", "kann erst nach der Zustellung", "ne peut être retournée qu'une fois livrée".
ONLY_ON_CONDITION = (
    r"\b(?:only|solo|sólo|nur|erst|seulement|alleen|pas)\b[^.!?;]{0,40}?\b(?:once|when|after|una vez|cuando|"
    r"después de|sobald|wenn|nachdem|nach|une fois|quand|après|dès|zodra|als|wanneer|nadat|na)\b"
    r"|\bqu'une fois\b|\bque\s+(?:une fois|lorsque|quand)\b"
)
# What is set aside, read only for the words right after it: "to your card rather than as store credit", "statt
# als Gutschrift" ("instead of a refund we can do an exchange" still offers the exchange).
SET_ASIDE = (
    r"\b(?:rather than|instead of|(?:an)?statt|au lieu d[e']?|plutôt qu[e']?|en lugar de|en vez de|in plaats van)"
    r"\s*(?:[^\s.,;:!?]+\s+){0,3}$"
)
# ...or when a condition comes before it ("Once you confirm, the return will be created"). A condition
# of time says when, not whether: "When it goes through, the refund goes to your PayPal" still names the
# refund's way, where "if you paid with PayPal" does not.
TIME_CONDITION = (
    # ("before the weekend", "until Friday" are a deadline, not a condition)
    # ("30 days from the day your order is delivered": the day of an event, not the event)
    r"\b(?:once|when|whenever|as soon as)\b|\b(?:from|on)\s+the\s+(?:day|date)\b|\b(?:after|until|before)\b"
    rf"(?!\s+(?:the\s+)?(?:weekend|end|holidays?|christmas|noon|midnight|tomorrow|tonight|today|next|this|{_WEEKDAY}|\d))"
    # German, French, Spanish, Dutch
    r"|\b(?:sobald|nachdem|dès que|une fois que|lorsque|quand|una vez que|cuando|en cuanto|zodra|wanneer|nadat)\b"
    rf"|\b(?:{_ONLY_THEN})\b"
)
HYPOTHESIS = r"\b(?:if|whether|unless|should you|would you like|do you want)\b|\b(?:wenn|falls|si|indien)\b"
CONDITION = rf"{TIME_CONDITION}|{HYPOTHESIS}"
# A request to the customer that a future promise follows: "Just confirm and tell me the reason, and I'll
# set up the return" is conditional on it, like "once you confirm".
REQUEST_FIRST = (
    r"\s*(?:just\s+|please\s+)?(?:confirm|tell me|let me know|reply|say the word|send me|give me|"
    r"bestätigen sie|sag mir|confirmez|dites-moi|confirma|dime|dígame|bevestig|laat me weten)\b[^.!?]*\band\b"
)
# A future commitment in a sentence that names a condition anywhere is conditional too.
FUTURE = r"\b(?:will|'ll|going to|wird|werden|sera|seront|será|serán|wordt|zal|zullen)\b"

# A relative day as the date of a delivery or shipment: "a été livré hier", "shipped yesterday" (the
# shipment's words are ORDER_STATUS_WORDS["shipped"]).
# (French "hier" only after a participle: it is "here" in German and Dutch)
YESTERDAY = (
    r"(?<!before )\b(?:yesterday|gestern|ayer|gisteren)\b(?<!antes de ayer)"
    r"|\b(?:livrée?s?|expédiée?s?|arrivée?s?|envoyée?s?|reçue?s?)\s+hier\b"
)
# Days counted back from today: (days, pattern).
# Time still left, in the five languages: "5 days left", "you still have 17 days", "noch 5 Tage", "il vous reste
# 5 jours", "te quedan 5 días", "nog 5 dagen" (read before the figure), and "5 more days" (read around it).
REMAINING_AFTER = r"\s+(?:left|remaining|to go|to spare|übrig|restants?|restantes?|over)\b"
_STILL = r"(?:still|only|nog|noch|encore|todavía|aún|ya solo)"
_HAVE = r"(?:have|has|got|haben|hast|habt|heeft|hebt|heb|hebben|avez|as|tienes|tiene|tenéis|tienen)"
REMAINING_BEFORE = (
    rf"(?:\b{_STILL}\s+{_HAVE}|\b{_HAVE}\s+{_STILL}|\bil (?:vous|te|nous) reste(?:nt)?(?:\s+encore)?"
    r"|\b(?:te|le|les|os)\s+quedan?)\b[^\d.!?;:]{0,12}$"
)
MORE_DAYS = r"\b(?P<count>\d{1,3})\s+(?:more|extra)\s+(?P<unit>days?|weeks?)\b"
# Today and tomorrow in the five languages, as days from today ("morgen" is German and Dutch).
DAYS_AHEAD = {
    0: r"today|heute|aujourd'hui|hoy|vandaag",
    1: r"tomorrow|morgen|demain|mañana",
}
# A last day named by those words: "you have until tomorrow", "bis morgen", "the window closes today".
DEADLINE_LEAD = (
    r"\b(?:until|till|by|through|bis|jusqu'(?:à\s+)?|hasta|tot(?:\s+en\s+met)?|uiterlijk)\s+(?:the end of\s+)?"
    r"|\b(?:window|deadline|frist|rückgabefrist|délai|plazo|termijn|retourtermijn)\b[^.!?]{0,30}?\b(?:closes|ends|"
    r"expires|runs out|endet|läuft\s+(?:\w+\s+)?ab|se termine|expire|termina|vence|sluit|verloopt|loopt\s+af)\s+"
    r"|\b(?:last day|letzte tag|dernier jour|último día|laatste dag)\b[^.!?]{0,20}?\b(?:is|ist|est|es|was)\s+"
)
RELATIVE_DAYS = (
    (1, YESTERDAY),
    (2, r"\b(?:the day before yesterday|vorgestern|avant-hier|anteayer|antes de ayer|eergisteren)\b"),
    (
        7,
        r"\b(?:a|one) week ago\b|\bil y a (?:une|1) semaine\b|\bvor (?:einer|1) woche\b|\bhace (?:una|1) semana\b"
        r"|\b(?:een|1) week geleden\b",
    ),
)
# An order's placing, the event "yesterday" may date: "You placed BK-16483 yesterday".
ORDER_PLACED = (
    r"\b(?:placed|ordered|bestellt|aufgegeben|commandée?s?|passée?s?|pedid[oa]|realizad[oa]|besteld|geplaatst)\b"
)
# A delivery denied: "It's not marked as delivered yet", "noch nicht zugestellt", "pas encore livrée".
NOT_DELIVERED = (
    r"\b(?:not|isn't|hasn't|hasn't been|haven't|has not|is not|not yet|never)\s+(?:\w+\s+){0,2}?"
    r"(?:delivered|arrived|showing as delivered)\b"
    r"|\b(?:noch nicht|nicht)\s+(?:\w+\s+){0,2}?(?:zugestellt|geliefert|angekommen)\b"
    r"|\b(?:pas encore|pas|jamais)\s+(?:\w+\s+){0,2}?(?:livrée?s?|arrivée?s?)\b"
    r"|\b(?:todavía no|aún no|no)\s+(?:\w+\s+){0,2}?(?:entregad[oa]s?|llegado)\b|\bno\s+(?:se\s+)?(?:ha\s+)?entreg\w*"
    r"|\b(?:nog niet|niet)\s+(?:\w+\s+){0,2}?(?:bezorgd|geleverd|aangekomen)\b"
)
# How many items an order holds, said of the order: "All four items in BK-32580", "BK-40317 had three books".
ORDER_ITEM_COUNT = (
    rf"\ball\s+(?P<n>{_COUNT_NUMBER})\s+(?:items|books|titles)\s+(?:in|on|of|from)\s+(?:(?:order\s+)?bk-\d+|your order|"
    r"the order)"
    rf"|\bboth\s+(?:items|books|titles)\s+(?:in|on|of|from)\s+(?:(?:order\s+)?bk-\d+|your order|the order)"
    rf"|\bbk-\d+\s+(?:had|has|contains?|contained|includes?|included|held|holds)\s+(?P<m>{_COUNT_NUMBER})\s+"
    r"(?:items|books|titles)"
    # "Alle drei Artikel aus BK-72051", "les trois livres de BK-…", "los tres libros del pedido BK-…"
    r"|\b(?:alle|les|tous les|los|todos los)\s+(?P<k>zwei|drei|vier|fünf|deux|trois|quatre|cinq|dos|tres|cuatro|"
    r"cinco|twee|drie|vier|vijf|\d{1,2})\s+(?:artikel|bücher|titel|livres|articles|titres|libros|artículos|títulos|"
    r"boeken|artikelen|titels)\s+(?:aus|in|von|de|du|des|del|uit|van)\s+(?:(?:der|la|votre|el|tu|su|je|uw)\s+)?"
    r"(?:bestellung\s+|commande\s+|pedido\s+|bestelling\s+)?bk-\d+"
)
# A phone number: no tool result and no policy text gives one ("our support line is 1-800-266-5591").
PHONE_NUMBER = (
    r"(?<![\w-])(?:\+\d{1,3}[\s.-]?)?(?:\(?\d{3}\)?[\s.-]?)\d{3}[\s.-]\d{4}(?![\w-])"
    r"|(?<![\w-])1-8\d\d-[A-Z0-9]{3}-[A-Z0-9]{4}(?![\w-])"
)
# A day written without its month: "on the 7th", and after an event in the other four languages
# ("expédiée le 3", "am 12. angekommen", "se entregó el 5", "op de 3e bezorgd").
DAY_ONLY = (
    rf"\b(?:on|by|until|till|before|after|since|from|{_WEEKDAY})\s+"
    r"the\s+(\d{1,2})(?:st|nd|rd|th)\b"
    r"|\b(?:expédiée?s?|livrée?s?|arrivée?s?|envoyée?s?|reçue?s?|commandée?s?|partie?s?)\s+le\s+(\d{1,2})(?:er)?"
    r"(?![\d.,/:]\d|\s*(?:h\b|heures?|jours?|%|€|\$))\b"
    r"|\b(?:am|vom)\s+(\d{1,2})\.(?=\s+(?:angekommen|zugestellt|geliefert|versandt|verschickt|bestellt|eingetroffen|"
    r"aufgegeben)\b)"
    r"|\b(?:enviad[oa]s?|entregad[oa]s?|llegó|llegaron|salió|envió|entregó|recibid[oa]s?)\s+el\s+(?:día\s+)?(\d{1,2})"
    r"(?![\d.,/:]\d|\s+de\b|\s*(?:%|€|\$|días?))\b"
    r"|\bop\s+de\s+(\d{1,2})(?:e|de|ste)\b"
)
# How many orders a list holds: "You have two orders with us", "Sie haben drei Bestellungen".
ORDER_COUNT = (
    rf"\b(?:you have|you've got|there are|i (?:can )?see|i found|i've found|sie haben|vous avez|il y a|tienes|tiene|"
    rf"hay|je hebt|u heeft|er zijn)\s+(?P<n>{_COUNT_NUMBER}|zwei|drei|vier|fünf|deux|trois|quatre|cinq|dos|tres|"
    r"cuatro|cinco|twee|drie|vijf)\s+(?:(?!other|more|further|older|newer|andere|autres|otros|otras)(?P<kind>\w+)\s+)?"
    r"(?:orders|bestellungen|commandes|pedidos|bestellingen)\b"
    # a part of the list, not its count: "there are two orders from October 29"
    r"(?!\s+(?:from|placed|dated|since|before|after|still|that (?:are|were)|which (?:are|were))\b)"
    # (the status after the noun: "deux commandes livrées", "dos pedidos entregados")
    r"(?:\s+(?P<kind_after>\w+))?"
)
# An order's total stated ("Your order total for BK-31330 was $18.25"): the total a result gave, not a
# price or a sum of some items. A refund's total is a refund amount, checked as one.
# ("in total" and "total $161.75 between them" add up some items: a subset's sum, grounded as such)
ORDER_TOTAL_WORD = (
    r"\b(?:order total|total (?:for|of|on) (?:your order|the order|this order|bk-\d+)|"
    r"(?:your|the|this) order(?: bk-\d+)? (?:came|comes) to|gesamtbetrag|montant total de (?:la|votre) commande|"
    r"total de (?:la|votre) commande|total del pedido|totaalbedrag)\b"
)
REFUND_CONTEXT = r"\b(?:refund\w*|back|credit\w*|(?:rück)?erstatt\w*|rembours\w*|reembols\w*|terugbetal\w*|terug)\b"
# A reference code of the store's own kind ("RL-55812", "CASE-2291"): like an RMA, a code a tool gave.
REFERENCE_CODE = r"(?<![\w-])(?!(?:BK|RMA)-)[A-Z]{2,5}-\d{3,}(?![\w-])"

# Words between an order number and a status word that make it no plain statement of that status
# (ORDER_STATUS_WORDS): a negation, a future, a condition, a guess, an expectation ("due", "yet"), or
# another thing than the order (its return, its refund, a replacement).
ORDER_STATUS_HEDGE = (
    rf"{NEGATION}|{FUTURE}|{CONDITION}|{HEDGE}"
    r"|\b(?:yet|would|should|can|must|expected|estimated|due|soon|return\w*|refund\w*|label|replacement|email|"
    r"noch|encore|todavía|aún|nog)\b"
)

# --- Policy statements ------------------------------------------------------------------------------

# A currency written as a word after an amount: "30 dollars", "30 dólares".
CURRENCY_WORD = r"dollars?|dólar(?:es)?|euros?|bucks"
NUMBER_WORDS = _word_set(
    "one two three four five six seven eight nine ten eleven twelve fourteen fifteen twenty twenty-one twenty-four "
    "thirty forty-five sixty ninety"
)
# The same numbers in German, French, Spanish and Dutch, read only before a unit of time. (Their values are
# guardrails.spelled_numbers.number_words(), the one table of number words in the five languages.)
OTHER_LANGUAGE_NUMBER_WORDS = _word_set(
    "zwei deux dos twee drei trois tres drie vier quatre cuatro fünf cinq cinco vijf sieben sept siete zeven zehn "
    "dix diez tien vierzehn quatorze catorce veertien zwanzig vingt veinte twintig dreißig dreissig trente treinta "
    "dertig sechzig soixante sesenta zestig neunzig quatre-vingt-dix noventa negentig"
)
_NUMBER = r"(\d{1,3}|" + "|".join(sorted({*NUMBER_WORDS, *OTHER_LANGUAGE_NUMBER_WORDS}, key=len, reverse=True)) + r")"
# A number of books, in the five languages: "four books", "all three of your Hilary Mantel books", "vier Bücher"
# (between the number and the noun only capitalised words, a name: "30 dagen om boeken" counts days).
_ITEM_NOUN = (
    r"books|items|titles|novels|copies|volumes|bücher|büchern|artikel|artikeln|titel|exemplare|exemplaren|livres|"
    r"articles|titres|exemplaires|libros|artículos|títulos|ejemplares|boeken|artikelen|titels|exemplaren"
)
COUNTED_ITEMS = (
    rf"(?<![\d.,$€])\b{_NUMBER}\s+(?:of\s+(?:the|your|these|those)\s+|de\s+)?(?:(?-i:[A-Z][\w'-]*)\s+){{0,2}}?"
    rf"(?:{_ITEM_NOUN})\b"
)
# A figure the reply declines to confirm (the customer's, quoted to deny it): "I can't confirm a 60-day return
# window", "I can't see a charge of $45 here", "Eine Erstattung von 30 $ kann ich leider nicht bestätigen".
_DECLINED_AMOUNT = (
    r"(?:\$\s?\d+(?:[.,]\d{2})?|\d+(?:[.,]\d{2})?\s?(?:\$|€|dollars?|euros?)|"
    rf"(?:\d+|{_NUMBER})[- ](?:days?|hours?|weeks?|tage|stunden|wochen|jours|heures|semaines|días|horas|semanas|"
    r"dagen|uur|weken)\b)"
)
# a date declined in the same clause: "I can't confirm a delivery on the 18th"
_DECLINED_DATE = (
    r"(?:the\s+\d{1,2}(?:st|nd|rd|th)\b|(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?\s+\d{1,2}"
    r"(?:st|nd|rd|th)?\b|\d{1,2}(?:st|nd|rd|th)?\s+(?:of\s+)?(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*)"
)
_CANNOT = r"\b(?:can't|cannot|can not|unable to|not able to)\s+"
DECLINED_FIGURE = (
    # (a date in the same clause only: "I can't see a delivery date, but it was delivered on May 3" claims it)
    rf"{_CANNOT}(?:confirm|see|find|verify)\b[^.!?;,]{{0,40}}?"
    + _DECLINED_DATE
    + rf"|{_CANNOT}(?:confirm|see|find|verify|go by|accept|offer|honou?r|promise|agree to|match)\b[^.!?;]{{0,40}}?"
    + _DECLINED_AMOUNT
    + r"|\b(?:don't|do not)\s+see\b[^.!?;]{0,40}?"
    + _DECLINED_AMOUNT
    + r"|\b(?:(?:no|any) record of|not aware of|don't know of|do not know of)\b[^.!?;]{0,40}?"
    + _DECLINED_AMOUNT
    + r"|"
    + _DECLINED_AMOUNT
    + r"[^.!?;]{0,40}?\b(?:kann ich|können wir)\s+(?:\S+\s+){0,4}?nicht\s+(?:bestätigen|sehen|finden)\b"
    # a date corrected: "niet op 1 december maar op vrijdag 5 december", "not on the 1st but on the 5th"
    + r"|\b(?:not|niet|nicht|pas|no)\s+(?:on|op|am|le|el)\s+[^.!?;,]{1,25}?,?\s+(?:but|maar|sondern|mais|sino)\b"
    # a date denied after the right one: "op 5 mei bezorgd, niet op 10 mei."
    + r"|,\s*(?:not|niet|nicht|pas|no)\s+(?:on|op|am|le|el)\s+[^.!?;,]{1,25}?(?=\s*[.!?;]|$)"
    + r"|\b(?:je ne peux pas confirmer|je ne vois pas|no puedo confirmar|no veo|kan ik niet bevestigen|zie ik niet)\b"
    + r"[^.!?;]{0,40}?"
    + _DECLINED_AMOUNT
)
# The items of a list named as a whole: "both books", "Beide Bücher", "les deux livres", "all three titles".
ITEMS_SUMMARY = (
    rf"(?:(?:both|all|the|beide|alle|die|les|tous les|toutes les|los|las|todos los|ambos|de|allebei)\s+)?"
    rf"(?:{_NUMBER}\s+)?(?:{_ITEM_NOUN})"
)
# All that an order held, counted: "Incluía dos libros: …", "It contained two books", "BK-7042 had three
# items" (not a return's or a parcel's part, nor "two books that can go back": the part a reply is about).
ORDER_HELD = (
    r"(?:\b(?:order|bk-\d+|it)\s+(?:had|has)|\b(?:contained|contains|included|includes|consisted of|was made up of|"
    r"incluía|incluye|contenía|contiene|traía|enthielt|enthält|umfasste|umfasst|bestand aus|contenait|contient|"
    r"comprenait|comprend|bevatte|bevat|bestond uit))"
    r"\s+(?:only\s+|just\s+|nur\s+|seulement\s+|solo\s+|sólo\s+|maar\s+|slechts\s+)?"
    r"(?:(?:your|vos|tes|les|ihre|deine|die|sus|tus|los|las|je|uw|de)\s+)?"
    rf"{_NUMBER}\s+"
    rf"(?:(?-i:[A-Z][\w'-]*)\s+){{0,2}}?(?:{_ITEM_NOUN})\b"
    r"(?!\s+(?:that|which|you|eligible|returnable|que|qui|die|dat|der|to)\b)"
)
# What holds a part of an order, not all of it.
ORDER_PART = (
    r"\b(?:returns?|refunds?|labels?|parcels?|packages?|shipments?|box|deliver(?:y|ies)|rücksendung|paket|sendung|"
    r"retour|colis|envoi|devolución|paquete|envío|pakket|zending|first|second|other)\b"
)
# Units of time in the five languages, by the unit they mean. "Werktage", "jours ouvrables",
# "días hábiles" and "werkdagen" are business days in one word or with the word after.
DURATION_UNITS: dict[str, str] = {
    "business day": (
        r"(?:werk|arbeits)tag(?:e|en)?|jours?\s+ouvr(?:ables?|és)|d[ií]as?\s+(?:hábiles|habiles|laborables)"
        r"|werkdag(?:en)?"
    ),
    "day": r"days?|tag(?:e|en)?|jours?|d[ií]as?|dag(?:en)?",
    "hour": r"hours?|stunden?|heures?|horas?|uur|uren",
    "week": r"weeks?|wochen?|semaines?|semanas?|weken",
    "month": r"months?|monate?n?|mois|mes(?:es)?|maand(?:en)?",
    "year": r"years?|jahre?n?|ans|années?|años?|jaar|jaren",
}
# "30 days", "3 to 5 business days", "1-2 business days", "24 hours", "two weeks", "3 bis 5 Werktage",
# "sous 7 jours", "hace 20 días".
DURATION = (
    rf"\b{_NUMBER}(?:\s*(?:-|–|to|or|bis|oder|à|ou|a|o|tot|of)\s*{_NUMBER})?[\s-]+(business\s+|working\s+|calendar\s+)?"
    r"(" + "|".join(DURATION_UNITS.values()) + r")(?![\w-])"
)
# A duration counted back from today: "delivered 12 days ago", "vor 12 Tagen", "il y a 12 jours",
# "hace 12 días", "12 dagen geleden".
# ("It's been 14 days since delivery" counts back too; "seit 14 Tagen", "depuis 14 jours", "sinds 14 dagen")
AGO_AFTER = (
    r"\s*(?:ago|geleden)\b|\s+since\s+(?:(?:it|they|the\s+\w+|your\s+\w+)\s+)?(?:(?:was|were|has|have)\s+(?:been\s+)?)?"
    r"(?:deliver|arriv|came|got)"
)
ORDER_EVENT = (
    r"\b(?:order\w*|bestell\w*|command\w*|pedid\w*|ship\w*|dispatch\w*|sent|verschickt|versandt|versendet|"
    r"expédi\w*|envoy\w*|enviad\w*|envi[oó]|verzonden|verstuurd|return\w*|retour\w*|rücksend\w*|devol\w*|refund\w*|"
    r"erstatt\w*|rembours\w*|reembols\w*|terugbetal\w*|parcel|package|paket|colis|paquete|pakket|pakje|books?|"
    r"buch|bücher|livres?|libros?|boeke?n?|it|they|es|sie|il|elle|lo|la|het|entreg\w*|lleg\w*|livr\w*|bezorg\w*|"
    r"geliefer\w*|zugestell\w*)\b"  # (and DELIVERY_WORD, which the check reads beside it)
)
AGO_BEFORE = r"\b(?:vor|il y a|hace|seit|depuis|desde hace|sinds)\s*$"
# What a counted-back duration is about when the sentence says: the delivery.
DELIVERY_WORD = (
    r"\b(?:deliver\w*|arriv\w*|received|got to you|zugestellt|geliefert|angekommen|livrée?s?|reçue?s?|"
    r"entregad[oa]s?|recibid[oa]s?|llegó|bezorgd|geleverd|afgeleverd|aangekomen|ontvangen)\b"
)
# "100% happy to help" is a manner of speaking, not a figure.
PERCENT = (
    r"(?<!\bfor you\s)(?<!\bhere\s)\b\d{1,3}(?:\.\d+)?\s?(?:%|percent\b)"
    r"(?!\s+(?:happy|sure|certain|committed|satisfied|honest|with you|on it|behind you)\b)"
)
# A duration said to be about right ("a little under two weeks" for 12 days): within APPROXIMATE_SHARE of
# a fact of the thread, in the five languages.
APPROXIMATE = (
    r"\b(?:about|around|roughly|approximately|almost|nearly|just|a little|a bit|slightly|under|over|more than|"
    r"less than|close to|ungefähr|etwa|rund|fast|knapp|über|environ|presque|près de|plus d(?:e\b|')|"
    r"moins d(?:e\b|')|casi|unos|unas|alrededor de|más de|menos de|ongeveer|bijna|ruim|zo'n)\W*(?:\w+\W+)?$"
)
APPROXIMATE_SHARE = 0.25

# What a policy figure is about, so a figure must be the one its own policy statement gives
# (refund timeline 7 business days, return window 30 days, standard shipping 3 to 5 business days and
# the $25 threshold, expedited 1 to 2 business days and $9.99, reset link 24 hours), not any number of
# any policy. A figure belongs to the nearest subject before it in its sentence, else the first after.
POLICY_SUBJECTS: dict[str, str] = {
    "expedited": (
        r"\b(?:expedited|express|rush|next-day|overnight|faster)(?:\s+(?:shipping|delivery|option))?\b"
        r"|\bexpress\w*|\bexpr[eé]s\w*|\bspoed\w*|\burgente?s?\b|\beil\w*|\bversneld\w*"
        r"|\bsnelle\s+verzending\b|\bschnelle[rn]?\s+versand\b|\blivraison\s+rapide\b|\benv[ií]o\s+r[aá]pido\b"
    ),
    "standard": (
        r"\bstandard(?:\s+(?:shipping|delivery))?\b(?!\s+(?:return|policy|window))"
        r"|(?<!return )(?<!returns )\bshipping\b(?!\s+(?:label|address))"
        # ("versnelde verzending" is expedited shipping)
        r"|\b(?:standardversand|versand\w*|exp[ée]dition\w*|env[ií]os?|(?<!versnelde )(?<!snelle )verzend\w*|"
        r"standaard\w*)"
    ),
    "refund": (
        r"\brefund\w*|\breimburs\w*|\bmoney back\b"
        r"|\b(?:of|after|once|when|as soon as)\s+(?:us\s+|we\s+|the warehouse\s+|our warehouse\s+)?(?:receiv\w+|gets?|"
        r"getting|ha(?:ve|s|d)|check\w*)\s+(?:the|your|them|it)\b(?:\s+(?:return|books?|items?|parcel))?"
        r"|\b(?:r[üu]ck)?erstatt\w*|\bgutschrift\w*|\brembours\w*|\breembols\w*|\bterug(?:betal|gestort)\w*"
        r"|\bgeld terug\b|\brecibirás\b|\bnach\s+(?:eingang|erhalt)\b|\baprès\s+(?:réception|avoir reçu)\b"
        r"|\b(?:desde|después de|a)\s+que\s+recib\w+|\bnadat\s+(?:wij|we)\b|\bna\s+ontvangst\b"
        r"|\b(?:suivant|dès|à)\s+(?:la\s+)?réception\b|\b(?:a|tras|después de)\s+la\s+recepción\b|\btras\s+recibir\b"
        r"|\bbij\s+ontvangst\b|\bnach\s+dem\s+(?:eingang|erhalt)\b"
        # "Cuando recibamos el libro, te devolveremos 16,90 $": the money given back, not the book sent back
        r"|\bcuando\s+recib\w+|\b(?:te|le|les)\s+devolver\w*\s+(?:el\s+dinero|\d)|\bsobald\s+wir\b|\bzodra\s+(?:wij|we)\b"
        r"|\bquand\s+nous\s+(?:recevrons|aurons\s+reçu)\b"
    ),
    "window": (
        r"(?<!receiving the )(?<!receive the )(?<!received the )\breturn(?:s|ed|ing)?\b(?!\s+(?:label|shipping))"
        r"|\bwindow\b|\b(?:send|ship|post|mail|bring)\w*\s+(?:\w+\s+){0,2}?back\b"
        r"|\br[üu]ck(?:gabe|sendung)\w*|\bzur[üu]ck(?:zu)?(?:geben|gegeben|senden|gesendet|schicken|geschickt)\b"
        r"|\bretourn\w*|\bretour\b|\bdevol\w*|\bterug(?:sturen|stuur|gestuurd|geven)\b"
    ),
    "reset": r"\breset\b|\blink\b|\bpassword\b|\bpasswort\w*|\bmot de passe\b|\bcontrase[ñn]a\b|\bwachtwoord\w*",
}

# Invented store policy (matched per sentence; a negated clause is fine: "we don't price match").
# A list of orders called complete ("Those 20 are all the orders on your account") when it was truncated.
ALL_ORDERS_CLAIM = (
    r"\ball (?:of )?(?:the |your )?orders (?:on|in|under|you have|you've)\b|\bevery order (?:on|in|you)\b"
    r"|\b(?:that's|that is|those are|these are)\s+(?:all|every one) of (?:them|your orders)\b"
    r"|\b(?:that's|that is) (?:the )?(?:full|complete|whole) list\b"
)
# A kind of book said not to be returnable that the policy does not exclude (it excludes ebooks, audiobooks,
# gift cards and personalized items): "Maus is a comic, and comics can't be returned". Read negated too.
INVENTED_EXCLUSION = (
    r"\b(?:comics?|graphic novels?|manga|textbooks?|magazines?|cookbooks?|paperbacks?|hardcovers?|hardbacks?|"
    r"children's books|picture books|sale items?|discounted (?:books|items)|signed (?:copies|books)|"
    r"box(?:ed)? sets?|calendars?|poetry books|used books|journals?)\s+(?:can't|cannot|can not|aren't|are not|"
    r"can never|may not)\s+(?:be\s+)?(?:returned|refunded|sent back)\b"
    r"|\b(?:comics?|graphic novels?|manga|textbooks?|magazines?|cookbooks?|sale items?|signed (?:copies|books)|"
    r"box(?:ed)? sets?)\s+(?:are|is)\s+(?:non-?returnable|final sale|not returnable|excluded from returns)\b"
)
INVENTED_POLICY: dict[str, str] = {
    "restocking_fee": r"\brestocking fee",
    "price_match": r"\bprice[- ]match",
    "international_shipping": (
        # (a list may name the US first: "We ship to the US and Canada")
        r"\bwe\s+(?:do\s+|also\s+|can\s+)?ship\s+(?:internationally|worldwide|abroad|overseas|to\s+"
        r"(?:(?:the\s+)?(?:us|u\.s\.|usa|united states)\s*(?:,|and|&)\s*)?(?:canada|mexico|"
        r"the uk|europe|australia|germany|france))\b|\binternational shipping is (?:available|free)"
        r"|\b(?:verzenden|leveren)\b[^.!?]{0,50}?\b(?:ook\s+)?naar\s+(?:belgië|nederland|duitsland|frankrijk|europa|"
        r"het buitenland|canada)\b"
        r"|\b(?:versenden|liefern)\s+(?:wir\s+)?(?:auch\s+)?(?:nach|ins)\s+(?:deutschland|österreich|europa|ausland|"
        r"kanada)\b"
        r"|\b(?:expédions|livrons)\s+(?:aussi\s+|également\s+)?(?:en|au|vers|à)\s+(?:france|belgique|europe|"
        r"l'étranger|canada)\b"
        r"|\b(?:enviamos|hacemos envíos)\s+(?:también\s+)?(?:a|al)\s+(?:españa|europa|méxico|canadá|extranjero)\b"
        # territories the 50 states do not hold: "We ship to all 50 states, plus Puerto Rico and Guam"
        r"|\bship\w*\s+(?:[\w,]+\s+){0,7}?(?:puerto rico|guam|(?:the\s+)?(?:us\s+|u\.s\.\s+)?virgin islands|"
        r"american samoa|(?:the\s+)?northern mariana|apo(?:/fpo)?|fpo|military addresses)\b"
    ),
    "free_expedited": (
        r"\bfree\s+(?:expedited|express|overnight|next-day)\s+shipping\b"
        # ("at no charge" is read after the match: its "no" is no negation of the claim)
        r"|\b(?:expedited|express|overnight|next-day)\s+(?:shipping\s+|delivery\s+)?"
        r"(?:at(?= no (?:extra )?(?:charge|cost))|for free|free of charge|on us|on the house)"
        r"|\b(?:express\w*|exprés|spoed\w*)\b[^.!?]{0,40}?\b(?:offerte?|gratuite?|kostenlos|umsonst|gratis|"
        r"gratuito|gratuita|geschenkt)\b"
        r"|\b(?:kostenlose[nr]?|gratuite?|gratis|gratuito|gratuita)\s+(?:\w+\s+)?(?:express\w*|exprés|spoed\w*)"
    ),
    "used_returnable": (
        r"\b(?:opened|read|used|damaged|annotated)\s+(?:books?|items?|copies)\s+(?:can|may|are)\s+(?:still\s+|also\s+)?"
        r"(?:be\s+)?returned\b"
        r"|\b(?:opened|read|used)\s+(?:books?|items?|copies)\s+(?:are|is)\s+(?:fine|ok|okay|welcome|accepted|allowed)\b"
        # "a book that's been opened can still be returned as long as it's in like-new condition"
        r"|\b(?:books?|items?|cop(?:y|ies))\s+(?:that's|that has|that have|which has|which have)\s+been\s+"
        r"(?:opened|read|used)\s+(?:can|may)\s+(?:still\s+|also\s+)?(?:be\s+)?returned\b|\blike[- ]new\s+condition\b"
        r"|\beven if you(?:'ve| have)\s+(?:already\s+)?(?:started|begun|begin|start)\s+reading\b"
        # "Retourneren kan ook als het boek al gelezen is", "auch gelesene Bücher können zurückgegeben werden"
        r"|\b(?:retourneren|terugsturen)\s+kan\s+(?:ook\s+)?(?:als|wanneer)\b[^.!?]{0,40}\b(?:gelezen|gebruikt|geopend)\b"
        r"|\b(?:gelesene|gebrauchte|benutzte)\s+(?:bücher|artikel)\b[^.!?]{0,30}\b(?:zurückgegeben|zurückgeschickt)\b"
        r"|\blivres?\s+(?:déjà\s+)?(?:lus|utilisés|ouverts)\b[^.!?]{0,30}\b(?:retourn|renvoy|rembours)"
        r"|\blibros?\s+(?:ya\s+)?(?:leídos|usados|abiertos)\b[^.!?]{0,30}\b(?:devol|reembols)"
        r"|\bgelezen\s+boek\w*\b[^.!?]{0,30}\b(?:retour|terug)"
        # read books "accepted": "Gelesene Bücher werden ebenfalls angenommen"
        r"|\b(?:gelesene|gebrauchte)\s+bücher\s+(?:werden|sind)\s+(?:\S+\s+){0,2}?(?:angenommen|akzeptiert|"
        r"zurückgenommen|in ordnung|kein problem)\b"
        r"|\blivres?\s+(?:déjà\s+)?lus\s+(?:sont|seront)\s+(?:\S+\s+){0,2}?(?:acceptés|repris)\b"
        r"|\blibros?\s+(?:ya\s+)?leídos\s+(?:también\s+)?(?:se\s+aceptan|son\s+aceptados|se\s+admiten)\b"
        r"|\bgelezen\s+boeken\s+(?:worden|zijn)\s+(?:\S+\s+){0,2}?(?:aangenomen|geaccepteerd|teruggenomen|welkom)\b"
    ),
    # The original packaging made optional: the policy asks for it.
    "packaging_optional": (
        # (said as a denial, "isn't required", it reads as negated: only the positive forms are listed)
        r"\b(?:lost|threw away|thrown away|tossed|discarded|recycled|without)\s+"
        r"(?:the\s+|its\s+|your\s+)?(?:original\s+)?(?:packaging|box|wrapping|shrink-?wrap)\b[^.!?]{0,40}?"
        r"\b(?:is fine|that's fine|it's fine|fine too|is ok|is okay|that's ok|that's okay|that's all right|"
        r"that's alright)\b"
        r"|\b(?:original\s+)?packaging\s+is\s+(?:optional|a nice-to-have)\b"
    ),
    # the refund's days counted from the customer sending the parcel, not from the store receiving it
    "refund_from_sending": (
        r"\b(?:refund\w*|back|erstatt\w*|rembours\w*|reembols\w*|terug\w*)\b[^.!?]{0,60}?"
        r"\b(?:\d+|seven|sieben|sept|siete|zeven)\s+(?:business\s+|working\s+)?(?:days?|tage?n?|jours?|días|dagen)\s+"
        r"(?:of|after|from|nach|après|desde|tras|na)\s+(?:the day\s+)?(?:you\s+)?(?:sending|shipping|mailing|posting|"
        r"dropping off|send|ship|mail|post|drop off|"
        r"(?:dem\s+)?(?:versand|absenden)|l'envoi|(?:el\s+)?envío|verzending|het versturen)\b"
        r"|\b(?:refund\w*|reembols\w*|rembours\w*|erstatt\w*|terug\w*)\b[^.!?]{0,60}?\b(?:\d+|seven)\s+"
        r"(?:calendar\s+|business\s+|working\s+)?days?\s+(?:of|after|from)\s+(?:your|the)\s+(?:return\s+)?"
        r"(?:request|requesting)\b"
        r"|\b(?:\d+|seven)\s+calendar\s+days?\b(?=[^.!?]{0,40}\b(?:refund|return)\w*)"
        # counted from today: "It usually takes 7 business days from today"
        r"|\b(?:7|seven)\s+(?:business|working)\s+days\s+(?:from|starting)\s+(?:today|now)\b"
        r"|\b(?:7|sieben|sept|siete|zeven)\s+(?:werktage|jours ouvrés|días hábiles|werkdagen)\s+(?:ab heute|"
        r"à (?:partir|compter) d'aujourd'hui|(?:a partir )?de hoy|desde hoy|vanaf vandaag)\b"
        r"|\b(?:refund|return)\w*\b[^.!?]{0,60}?\b(?:\d+|seven)\s+calendar\s+days?\b"
    ),
    # no refund comes at once: "we'll refund $16.99 … right away", "processed the same day"
    "refund_at_once": (
        r"\b(?:refund\w*|reembols\w*|rembours\w*|erstatt\w*|terugbetal\w*)\b(?:[^.!?]|\.(?=\d)){0,60}"
        r"\b(?:right away|immediately|instantly|straight away|(?:on\s+)?the same day|same-day|sofort|umgehend|"
        r"am selben tag|immédiatement|tout de suite|le jour même|inmediatamente|al instante|el mismo día|meteen|"
        r"dezelfde dag)\b"
        # a refund on a day no result gives: "will be on your Mastercard by this Friday, March 13"
        r"|\brefund\w*\b(?:[^.!?]|\.(?=\d)){0,40}?\b(?:will|'ll|should)\s+(?:be|arrive|land|reach|show up|hit)\b"
        r"(?:[^.!?]|\.(?=\d)){0,40}?\b(?:by|on|before)\s+(?:this\s+|next\s+)?"
        rf"(?:{_WEEKDAY}|(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?\s+\d{{1,2}})\b"
    ),
    "refund_on_scan": (
        r"\brefunds?\b[^.!?]{0,30}?\b(?:sent|issued|processed|released|paid)\s+(?:as soon as|when|once|the moment)\s+"
        r"(?:the\s+|your\s+)?(?:label|parcel|package|return)\s+(?:is|gets|has been)\s+scanned\b"
        r"|\brefunds?\b[^.!?]{0,30}?\b(?:sent|issued|processed|released|paid)\s+(?:as soon as|when|once)\s+you\s+"
        r"(?:drop|send|ship|post|mail|hand)\b"
    ),
    "window_from_order_day": (
        r"\b(?:window|30 days?)\b[^.!?]{0,30}\b(?:starts?|begins?|counts?|runs?)\s+(?:on|from|at)\s+(?:the\s+)?"
        r"(?:day|date|moment)\s+(?:you\s+)?(?:place|placed|order|ordered|buy|bought|purchase|purchased)\b"
        r"|\b(?:30|thirty|dreißig|trente|treinta|dertig)\s+(?:days?|tage?n?|jours|días|dagen)\s+(?:from|after|of|since|"
        r"ab|nach|seit|à partir de|après|desde|tras|vanaf|na)\s+(?:your\s+|the\s+|ihrer\s+|der\s+|votre\s+|la\s+|"
        r"tu\s+|su\s+|la\s+fecha\s+de\s+|je\s+|uw\s+|de\s+)?(?:order(?:\s+date)?|purchase(?:\s+date)?|ordering|"
        r"bestellung|bestelldatum|kauf|commande|date de commande|achat|pedido|compra|bestelling|besteldatum|aankoop)\b"
    ),
    # a charge taken off the refund: the label is prepaid and the refund is the items' price
    "refund_deduction": (
        r"\b(?:deducted|subtracted|taken off|taken out|withheld|knocked off)\s+(?:from|of)\s+(?:your|the)\s+"
        r"(?:\$\s?\d[\d.,]*\s+|\d[\d.,]*\s?[$€]\s+)?refund\b"
        r"|\b(?:vom|von der|de votre|du|de tu|del|van (?:je|uw|de))\s+(?:rück)?(?:erstattung\w*|remboursement|"
        r"reembolso|terugbetaling)\s+(?:abgezogen|déduite?s?|descontad[oa]s?|afgetrokken|ingehouden)\b"
    ),
    "next_day": (
        r"\b(?:next (?:business |working )?day (?:delivery|shipping)|"
        r"(?:delivered|arrives?|gets? (?:it|them|your order|your books) to you|with you) (?:on )?(?:the )?next "
        r"(?:business |working )?day|"
        r"overnight (?:delivery|shipping)|am nächsten (?:werk)?tag|le lendemain|jour ouvré suivant|"
        r"al día (?:hábil )?siguiente|de volgende (?:werk)?dag)\b"
    ),
    # how soon an order leaves: the policy says how long shipping takes, never when an order ships
    "dispatch_time": (
        r"\b(?:ship|ships|shipped|dispatch(?:ed|es)?|go(?:es)? out|leaves?)\s+(?:always\s+)?(?:within|in under)\s+"
        r"(?:24|48|72|\d+|one|two|a few)\s+(?:hours?|business days?|days?)\s+(?:of|after|from)\s+(?:being\s+)?"
        r"(?:placed|ordered|ordering|purchase|your order)\b"
        r"|\bsame[- ]day\s+(?:shipping|dispatch)\b|\b(?:ships?|dispatched)\s+(?:the\s+)?same\s+day\b"
        r"|\b(?:will|should|'ll)\s+(?:ship|go out|be dispatched)\s+within\b"
        r"|\borders?\s+(?:like\s+\w+\s+)?(?:always\s+|usually\s+|normally\s+|typically\s+)?"
        r"(?:ship|ships|go out|leave)\s+within\b"
        r"|\b(?:leave|leaves)\s+(?:the|our)\s+warehouse\s+(?:within|in under|in)\s+(?:24|48|72|\d+|one|two|a few)\b"
        r"|\b(?:partent|part|expédiée?s?|versandt|verschickt|verlassen|verlässt|salen|sale|enviad[oa]s?|verzonden|"
        r"vertrekken|vertrekt|verlaten|verlaat)\b[^.!?]{0,40}?\b(?:sous|en moins de|innerhalb von|binnen|en menos de|"
        r"dentro de|en)\s+(?:24|48|72|un|une|einem|zwei|deux|dos|twee|één)\s+(?:heures?|stunden?|horas?|uur|jours?|"
        r"tage?n?|werktage?n?|días?|dagen|dag|werkdag(?:en)?)\b"
        r"|\b(?:promised|supposed|guaranteed|meant|due)\s+to\s+(?:ship|be shipped|be dispatched|go out|leave)\s+"
        r"(?:within|in)\s+(?:24|48|72|\d+|one|two|a few)\s+(?:hours?|business days?|days?)\b"
    ),
    "membership": (
        r"\bbookly (?:plus|premium|prime|club|gold|vip)\b|\b(?:loyalty|rewards) (?:program|programme|points)\b"
    ),
    # a rule stated with its own exception: "Personalized items normally can't be returned, but they can if …"
    "exception_to_rule": (
        r"\b(?:normally|usually|generally|normalement|généralement|en principe|normalerweise|eigentlich|"
        r"grundsätzlich|normalmente|por lo general|normaal(?: gesproken)?|meestal|in principe)\b"
        # (the rule's own negation sits in a lookahead: a negated match would read as a declined policy)
        r"(?=[^.!?]{0,60}\b(?:not|can't|cannot|aren't|isn't|pas|nicht|kein\w*|no|niet|geen)\b[^.!?]{0,60}"
        r"(?:\bbut\b|\bmais\b|\baber\b|\bpero\b|\bmaar\b|\bsin embargo\b|;|,\s+sí\b))"
    ),
    # Bookly has no cancellation policy: no tool cancels, no text gives a free-cancellation period
    "cancellation": (
        r"\b(?:orders?|it|they)\s+can\s+(?:still\s+)?be\s+cancell?ed\b|\bcancell?ed\s+free\b|\bfree\s+cancell?ation\b"
        r"|\bcancel\w*\s+(?:it\s+|your order\s+)?(?:within|up to|for free|free of charge)\b"
        r"|\b(?:kostenlos|gratuitement|gratis|kosteloos)\s+(?:storniert|stornieren|annul\w+|cancel\w+|geannuleerd)\b"
    ),
    # Shipping costs refunded: the policy refunds the books ("a full refund"), it says nothing of shipping.
    "shipping_refund": (
        r"\brefund\w*\s+(?:you\s+)?(?:for\s+)?(?:your\s+|the\s+)?(?:original\s+|outbound\s+)?shipping\s+"
        r"(?:cost|fee|charge)s?\b"
        r"|\bshipping\s+(?:cost|fee|charge)s?\b[^.!?]{0,20}\b(?:refunded|reimbursed)\b"
        r"|\b(?:versandkosten|frais de (?:port|livraison)|gastos de envío|verzendkosten)\b[^.!?]{0,60}"
        r"\b(?:erstatt\w*|rembours\w*|reembols\w*|terugbetaal\w*|terug)\b"
        # shipping added to what comes back: "the full order total of $24.00, plus the original shipping cost"
        r"|\b(?:refund\w*|get back|money back|back to you)\b(?:[^.!?]|\.(?=\d)){0,80}(?<!not )\b(?:plus|including|"
        r"as well as)\s+"
        r"(?:the\s+|your\s+)?(?:original\s+|outbound\s+)?shipping\b"
        r"|\bwith\s+(?:the\s+)?shipping\s+(?:costs?\s+|fees?\s+)?included\b"
        r"(?=(?:[^.!?]|\.(?=\d)){0,60}\b(?:back|refund\w*)\b)"
    ),
    # The window counted from the order, not the delivery.
    "window_from_order": (
        r"\b(?:of|after) the (?:order|purchase) date\b|\bdays? (?:of|after|from) (?:your |the )?(?:ordering|purchase)\b"
        # (not set against the delivery: "counted from delivery rather than from the order date")
        r"|(?<!rather than )(?<!instead of )(?<!not )\bfrom the (?:order|purchase) date\b"
        r"|\bfrom the date (?:of|you placed) (?:your |the )?(?:order|purchase)\b"
        r"|\bfrom (?:the day|when) you ordered\b|\bfrom the (?:day|date) you placed (?:the|your) order\b"
        r"|\b(?:à compter|à partir) de la date de (?:la |votre )?commande\b"
        r"|\bab (?:dem )?(?:bestelldatum|kaufdatum)\b|\bdesde la fecha (?:del pedido|de (?:la )?compra)\b"
        r"|\bvanaf de (?:besteldatum|datum van (?:je |uw )?bestelling)\b"
        # ("d'après la commande" is "according to the order")
        r"|\b(?:siguientes a|después de|desde) la compra\b|(?<!d')(?<!d’)\b(?:suivant|après) (?:l'achat|la commande)\b"
        r"|\bnach dem kauf\b|\bna (?:de )?aankoop\b|\bafter (?:the )?purchase\b|\bdays of (?:the |your )?purchase\b"
    ),
    # Store credit instead of a refund: refunds go to the original payment method.
    "store_credit": (
        r"\b(?:for|as|in|into)\s+(?:bookly\s+store|store|bookly)\s+credit\b|\b(?:bookly-)?gutschein\b|\bun avoir\b"
        r"|\ben bons? d'achat\b|\bvale de compra\b|\btegoedbon\b"
    ),
    "exchange": (
        r"\bwe\s+(?:can\s+|also\s+|happily\s+)?(?:offer|do|accept)\s+(?:free\s+)?exchanges\b"
        r"|\b(?:we|i)\s+(?:can|could|'d|would|will|'ll)\s+(?:also\s+|happily\s+|gladly\s+)?(?:exchange|swap)\b"
        r"|\byou\s+(?:can|could|may)\s+(?:also\s+|always\s+)?(?:exchange|swap)\s+(?:it|them|the book|your|"
        r"(?:a|any|one|the)\s+(?:\w+\s+)?(?:book|item|title|copy))\b"
        r"|\b(?:umtauschen|umgetauscht|échanger|échangé|cambiarlo|cambiarla|cambiarlos|omruilen|ruilen)\b"
        r"|\bexchanges?\s+(?:are|is)\s+(?:also\s+|always\s+)?(?:free|possible|allowed|available|accepted|welcome)\b"
        r"|\b(?:do|offer|arrange)\s+(?:you\s+)?(?:a|an)\s+(?:straight\s+|direct\s+|free\s+|simple\s+)?(?:exchange|swap)\b"
        r"|\b(?:can|may)\s+(?:also\s+)?be\s+(?:exchanged|swapped)\b"
        r"|\b(?:we're|we are)\s+(?:happy|glad)\s+to\s+(?:exchange|swap)\b"
        r"|\b(?:umtausch|échange|cambio|ruil|omruilen)\b[^.!?]{0,40}?\b(?:ist|est|es|is)\s+(?:\S+\s+){0,4}?"
        r"(?:möglich|gratis|kostenlos|possible|gratuit|posible|mogelijk)\b"
        # replacing instead of refunding is an exchange too: "If a book arrives damaged, we always replace it"
        r"|\b(?:we|i)\s+(?:always\s+|will\s+|'ll\s+|can\s+|happily\s+|simply\s+)*(?:replace|reship|re-ship|resend|re-send)"
        r"\s+(?:it|them|the book|the copy|any|damaged|your)\b"
    ),
    # The window in business days: the policy counts 30 days, business days only for refunds and shipping.
    "window_business_days": (
        r"\b(?:30|thirty)\s+(?:business|working)\s+days\b|\b(?:30|thirty)[- ]days?\b[^.!?;]{0,30}?\bcounted\s+"
        r"(?:in|as)\s+(?:business|working)\s+days\b|\b(?:30|dreißig)\s+werktage\b|\b(?:30|trente)\s+jours\s+ouvrés\b"
        r"|\b(?:30|treinta)\s+días\s+hábiles\b|\b(?:30|dertig)\s+werkdagen\b"
    ),
    # Returns without a time limit: the window is 30 days for everything that can be returned.
    "unlimited_window": (
        r"\b(?:returned|return it|return them|send it back)\b[^.!?]{0,40}?\b(?:at any time|any ?time|"
        r"with no time limit|without (?:a |any )?time limit|indefinitely|whenever you (?:like|want))\b"
        r"|\bsans limite de (?:temps|durée)|\bohne (?:zeitliche )?(?:frist|begrenzung|zeitlimit)\b"
        r"|\bsin límite de tiempo\b|\bzonder (?:tijds)?limiet\b|\bzeitlich unbegrenzt\b|\ben cualquier momento\b"
    ),
    # The customer paying for the return postage: the return label is prepaid.
    "customer_pays_return": (
        r"\byou(?:'ll| will)?\s+(?:need to |have to |must )?(?:pay|cover)\s+(?:for\s+)?(?:the\s+)?return\s+"
        r"(?:shipping|postage)\b"
        r"|\breturn (?:shipping|postage) (?:is|costs are) (?:at )?your (?:own )?(?:cost|expense)\b"
        r"|\b(?:verzendkosten|versandkosten|rücksendekosten|frais de (?:retour|renvoi|port)|"
        r"gastos de (?:envío|devolución))"
        r"\b[^.!?]{0,50}?\b(?:zelf|selbst|vous-même|à votre charge|tragen sie|usted mismo|tú mismo|a tu cargo|"
        r"a su cargo|betaalt|bezahlen)\b"
    ),
    "free_shipping_all": r"\bfree\s+(?:standard\s+)?shipping\s+on\s+(?:all|every|any)\s+orders?\b",
    # the threshold is "over $25": "$25 or more" and "at least $25" put it at $25
    "free_shipping_threshold": (
        r"\$\s?25(?:\.00)?\s+or\s+more\b|\bat\s+least\s+\$\s?25\b|\b25\s?(?:\$|dollars?)\s+(?:or|ou|o|oder|of)\s+"
        r"(?:more|plus|más|mehr|meer)\b|\$\s?25(?:\.00)?\s+(?:ou|o|oder|of)\s+(?:plus|más|mehr|meer)\b"
    ),
    # Read books taken back: the policy wants them unread ("Sie können Bücher auch gelesen zurückgeben").
    "read_returnable": (
        r"\b(?:can|may)\s+(?:still\s+|also\s+)?(?:return|send back)\b[^.!?]{0,40}?\beven\s+(?:if|though)\s+"
        r"(?:you(?:'ve| have)?\s+)?(?:already\s+)?read\b"
        r"|\b(?:read|used)\s+books\s+(?:can|may)\s+(?:also\s+|still\s+)?be\s+returned\b"
        r"|\bauch\s+(?:schon\s+)?gelesen\b|\bauch\s+(?:wenn|falls)\s+(?:sie|du)\s+(?:es|sie|das buch)\s+"
        r"(?:schon\s+)?gelesen\b"
        r"|\bmême\s+(?:s'ils?\s+(?:ont été|a été)\s+|si vous l'avez\s+|si tu l'as\s+)?lus?\b"
        # "it's fine if you've already read it", "aunque se hayan leído"
        r"|\b(?:fine|ok|okay|no problem|all right|alright)\s+if\s+you(?:'ve| have)?\s+(?:already\s+)?(?:read|started)\b"
        r"|\baunque\s+(?:ya\s+)?(?:se\s+|lo\s+|los\s+|la\s+|las\s+)?(?:hayas?|hayan|has|ha)\s+(?:ya\s+)?leíd[oa]s?\b"
        r"|\bincluso\s+(?:si\s+(?:ya\s+)?(?:lo|los|la|las)\s+(?:has|ha)\s+)?leíd[oa]s?\b"
        r"|\book\s+(?:als\s+(?:je|u)\s+(?:het|ze)\s+(?:al\s+)?(?:hebt|heeft)\s+)?gelezen\b"
    ),
    # Sale items as a class of their own: the policy knows only the non-returnable categories.
    "final_sale": (
        r"\b(?:sale|clearance|discounted|reduced)\s+(?:items?|books?|titles?)\s+(?:are|is)\s+(?:all\s+)?"
        r"(?:final(?:\s+sale)?|non-?returnable|not returnable)\b"
    ),
}

# Refund methods other than the original payment method (a tool result or the policy must name them).
# A category the policy never takes back, and a statement that something can be returned. A sentence
# with both, each in a clause that is not negated or excepted, says a non-returnable item is returnable
# ("All three items can be returned, including the audiobook"), in whichever order it says it.
NON_RETURNABLE = (
    r"\b(?:e-?books?|audiobooks?|audio books?|gift ?cards?|personali[sz]ed\b|cartes? cadeaux?|geschenkkarten?|"
    r"gutscheine?|tarjetas? (?:de )?regalo|cadeaukaart\w*|cadeaubon\w*|hörb[üu]ch\w*|livres? audio|audiolibros?|"
    r"luisterboek\w*|personnalisé\w*|personalisiert\w*|personalizad\w*|gepersonaliseerd\w*)"
)
RETURNABLE_CLAIM = (
    r"\b(?:can|may|could|are able to)\s+(?:\w+\s+){0,2}?(?:be\s+)?(?:returned|return|refunded|sent back)\b"
    r"|\b(?:returnable|refundable|(?:eligible|qualif(?:y|ies|ied)) for (?:a )?(?:return|refund))\b"
    r"|\b(?:remboursables?|retournables?|rückgabefähig|erstattungsfähig|reembolsables?|retornables?|retourneerbaar|"
    r"terugbetaalbaar)\b"
    r"|\b(?:peu(?:t|vent)|pourr(?:a|ont))\s+(?:\w+\s+)?être\s+(?:retournée?s?|remboursée?s?|renvoyée?s?)\b"
    r"|\b(?:se\s+)?(?:puede|pueden|podrá|podrán)\s+(?:\w+\s+)?(?:devolver|reembolsar|ser devuelt[oa]s?)\b"
    r"|\b(?:kann|können)\s+(?:\w+\s+){0,3}?(?:zurückgegeben|zurückgeschickt|erstattet)\b"
    r"|\b(?:kan|kunnen)\s+(?:\w+\s+){0,3}?(?:geretourneerd|teruggestuurd|terugbetaald|retour)\b"
    r"|\b(?:kun|kan|kunt|kunnen)\s+(?:je|u|jullie)\s+(?:\w+\s+){0,4}?(?:retourneren|terugsturen|terugbrengen)\b"
    r"|\b(?:kannst|können)\s+(?:du|sie)\s+(?:\w+\s+){0,4}?(?:zurückgeben|zurückschicken|zurücksenden)\b"
)
NOT_RETURNABLE = (
    r"\b(?:non-?returnable|final sale|except\w*|excluding|other than|apart from|nothing|none|neither|nor|"
    # "but ebooks, audiobooks, gift cards and personalized items are excluded"
    r"excluded|exclue?s?|ausgeschlossen|excluid[oa]s?|uitgesloten)\b"
)

# A refund sent to a card, no brand named: wrong when every method the tools gave is no card (PayPal).
GENERIC_CARD_REFUND = (
    r"\b(?:refund\w*|credit(?:ed)?|paid back|money back|reimburs\w*|(?:rück)?erstatt\w*|rembours\w*|reembols\w*|"
    r"terugbetal\w*|teruggestort)\b[^?!]{0,90}?\b(?:(?:credit|debit|bank)\s+card|kreditkarte|bankkarte|"
    r"carte (?:bancaire|de crédit)|tarjeta(?: de crédito| de débito)?|creditcard|bankpas|pinpas)\b"
)
# The return window said to be over, in the five languages.
WINDOW_CLOSED = (
    r"\b(?:window|deadline)\b[^.!?]{0,40}\b(?:closed|ended|expired|ran out|passed)\b"
    r"|\b(?:past|outside|beyond)\s+(?:the|its|your)\s+(?:\d+-day\s+)?(?:return\s+)?window\b"
    r"|\b(?:rückgabefrist|frist|rückgabezeitraum)\b[^.!?]{0,40}\b(?:abgelaufen|vorbei|verstrichen|überschritten)\b"
    r"|\bdélai\b[^.!?]{0,40}\b(?:expiré|dépassé|écoulé|terminé|passé)\b"
    r"|\bplazo\b[^.!?]{0,40}\b(?:vencido|venció|terminado|terminó|expirado|expiró|pasado|cerrado)\b"
    r"|\b(?:retourtermijn|termijn|retourperiode)\b[^.!?]{0,40}\b(?:verlopen|voorbij|verstreken|afgelopen)\b"
)
# An order said to have no tracking number (yet), in the five languages.
NO_TRACKING = (
    r"\b(?:it|bk-\d+|order|parcel|package|shipment)\s+(?:\w+\s+)?(?:doesn't|does not|has not|hasn't|did not|didn't)\s+"
    r"(?:yet\s+)?(?:have|got|get|been given|been assigned)\s+(?:a\s+|any\s+)?tracking\b"
    r"|\b(?:it|bk-\d+|order|parcel|package|shipment)\s+(?:\w+\s+)?has\s+no\s+tracking\b"
    r"|\bno\s+tracking\s+(?:number|info\w*|link|code)\s+(?:yet|for\s+(?:it|this|that|bk-\d+|your order|the order))\b"
    r"|\bthere(?:'s| is)\s+no\s+tracking\s+(?:number|info\w*|link|code)\b(?!\s+(?:beyond|other than|besides|apart))"
    r"|\bnoch\s+keine\s+(?:sendungsnummer|sendungsverfolgung|trackingnummer|tracking-nummer)\b"
    r"|\b(?:pas encore|toujours pas|aucun)\s+(?:de\s+)?numéro de suivi\b"
    r"|\b(?:todavía|aún)\s+no\s+(?:tiene|hay)\s+(?:un\s+)?número de seguimiento\b"
    r"|\bnog\s+geen\s+(?:trackingnummer|track-and-tracecode|track\s*&\s*trace(?:code)?)\b"
)
REFUND_METHOD_CLAIM = (
    r"\b(?:(?:rück)?erstatt\w*|rembours\w*|reembols\w*|terugbetal\w*)\b[^?!]{0,90}?\b(gutschrift|guthaben|"
    r"bookly-konto|avoir|bon d'achat|crédit (?:bookly|en magasin)|saldo|crédito (?:(?:en|de) (?:la )?tienda|bookly)|"
    r"vale|"
    r"tegoed|cadeaubon|waardebon|paypal|tarjeta (?:de )?regalo|geschenkkarte|carte cadeau|chèque cadeau|"
    r"cadeaukaart|banküberweisung|überweisung|bankkonto|virement(?: bancaire)?|compte bancaire|"
    r"transferencia(?: bancaria)?|cuenta bancaria|(?:bank)?overschrijving|bankrekening)\b|"
    # German money going back: "gehen 22,00 $ an Ihr PayPal-Konto zurück"
    r"\b(?:geht|gehen|fließt|fließen|kommt|kommen|überweisen|überwiesen|gutgeschrieben|zurückgebucht)\b[^?!]{0,90}?"
    r"\b(paypal|gutschrift|guthaben|geschenkkarte|gutschein|überweisung|bankkonto)\b|"
    r"\b(?:refund(?:ed|s)?|credit(?:ed)?|paid back|money back|reimburs\w*|go(?:es)? back to|be sent back to)\b"
    r"[^?!]{0,90}?\b(store credit|bookly credit|"
    r"gift card|gift certificate|paypal|venmo|bank transfer|bank account|wire transfer|cheque|check|cash|voucher|"
    r"coupon|points|visa|mastercard|amex|american express|discover|card ending(?: in)? \d{4})\b"
)

# --- Off-topic engagement -----------------------------------------------------------------------------

# Sure signs that a reply does something other than support: each one blocks. Kept short and
# structural (a recipe's quantities, code, a joke's set-up, a named book recommended), so support
# replies that merely mention "weather", "hotel", "landlord" or "enjoy" never match.
_FORECAST_WHEN = (
    r"tomorrow|this weekend|morgen|am wochenende|dieses wochenende|demain|ce week-end|mañana|este fin de semana|"
    r"estos días|dit weekend|het weekend|il va faire|es soll|es wird|het wordt|it'll stay|it will stay|expected"
)
_FORECAST_WEATHER = (
    r"sunny|rain(?:y|ing)?|snow(?:ing)?|dry|degrees|storms?|showers|windy|sonnig|regnen|regen(?:en)?|trocken|grad|"
    r"ensoleillé|beau|pluie|pleuvoir|pleut|chaud|degrés|soleado|llover|lluvia|calor|grados|zonnig|droog|graden|"
    r"windstoten|lesewetter|leesweer"
)
OFF_TOPIC_SURE: dict[str, str] = {
    "recipe": (
        r"\bpreheat\b|\b\d+(?:/\d+)?\s*(?:cups?|tablespoons?|tbsp|teaspoons?|tsp|grams|ounces|oz)\s+(?:of\s+)?"
        r"(?:\w+\s+)?(?:flour|sugar|butter|milk|salt|water|oil|eggs?|rice|baking|cocoa|vanilla|bananas?)\b"
        r"|\bbake (?:for|at) \d"
    ),
    "made_content": (
        r"\bhere(?:'s| is| are)\s+(?:a|an|my|the|one|another|some|your|\w+)\s+(?:\w+\s+){0,3}?(?:recipe|joke|poem|"
        r"haiku|limerick|story|riddle|song|rap|workout|itinerary|essay|script|function|snippet|program|sonnet|"
        r"cover letter|pun)s?\b"
        r"|\bknock,? knock\b|\broses are red\b|\bonce upon a time\b"
        r"|\b(?:a|an|this|my|one)\s+(?:haiku|limerick|sonnet|poem|joke|riddle)\s+for you\b"
        r"|\bhere(?:'s| is)\s+(?:a|an)\s+(?:short\s+|little\s+|quick\s+)?(?:message|note|verse|toast|wish)\s+for\s+"
        r"(?:the|your|a)\s+(?:card|gift|note|tag)\b"
        r"|\baquí tienes (?:un|una) (?:pequeñ[oa] )?(?:poema|chiste|canción|receta|cuento)\b"
        r"|\bhier(?:\s+is)?\s+(?:een|je)\s+(?:\w+\s+)?(?:gedicht\w*|grap\w*|mop\w*|recept\w*|verhaaltje\w*|liedje\w*)"
        r"|\bhier\s+(?:ist|kommt)\s+(?:ein|eine|dein|ihr)\s+(?:kleines\s+|kleiner\s+)?(?:gedicht|witz|rezept|lied)\w*"
        r"|\bvoici (?:un|une) (?:petit |petite )?(?:poème|blague|recette|histoire)\b"
        r"|\bfun fact\b|\bdid you know that\b|\b(?:leuk weetje|wist je dat|wussten sie|wusstest du|le saviez-vous|"
        r"saviez-vous que|petite anecdote|dato curioso|sabías que)\b"
        # a riddle and its answer: "why did the book join the police? Because it wanted to go undercover!"
        r"|\bwhy (?:did|does|do|is|was|can't|don't) (?:the|a|an) \w+ [^?]{1,60}\?\s+(?:because|it|he|she|they|to)\b"
    ),
    "code": (
        r"\bfor \w+ in [\w.()]+:|\b(?:const|let|var) \w+ =|=>|\bfrom \w+ import\b|\bclass \w+[:(]|\bprintf\(|"
        r"\bSystem\.out\b|\.reduce\(|\.map\(|\bdef \w+\(|\bfunction \w*\s*\(|console\.log\(|\bprint\(|#include\b|"
        r"public static void|"
        # a spreadsheet formula: =SUM(A1:A10), =SUMME(A1:A5)
        r"=\s*[A-Z]{2,}\([A-Z]{1,3}\d+(?::[A-Z]{1,3}\d+)?\)|"
        # a slice or a call with a keyword argument: s[::-1], sorted(items, reverse=True)
        r"\w\[-?\d*:-?\d*(?::-?\d*)?\]|\b[a-z_]\w*\([^()]*\b[a-z_]\w*=\w[^()]*\)|"
        r"\bSELECT\b[^.]{1,60}\bFROM\b|<script\b|\bimport \w+\s*$|\bpip install\b|\bnpm install\b|"
        # a return statement ends its line or block: "return total;}" (not "to return it; our window")
        r"\breturn [\w.()]+\s*;\s*(?:\}|$)"
        r"|\b(?:in|with|using)\s+(?:python|javascript|bash|powershell|google apps script)\b|\brequests library\b"
        # tech support for the customer's own devices
        r"|\b(?:turn|turning|switch|switching)\s+(?:it|your\s+\w+)\s+off\s+and\s+(?:back\s+)?on\s+again\b"
        r"|\breinstall(?:ing)?\s+(?:the|your)\s+(?:printer\s+)?driver\b"
        r"|\bpython (?:script|idea)\b|\bcron job\b|\b[a-z_]\w*\s*=\s*[a-z_][\w.]*\.\w+\("
        # a call inside a call: int(input())
        r"|\b[a-z_]\w*\([a-z_]\w*\(\)\)"
    ),
    "weather": (
        r"\bforecast (?:for|says|shows|is|calls)\b|\b-?\d+\s?°\s?[FC]?\b|\bchance of (?:rain|snow|showers|storms)\b"
        r"|\b\d{1,2}\s+(?:degrees|degrés|grad|grados|graden)\b"
        # a forecast: the weather of a day to come ("Morgen wordt het zonnig", "il va faire beau ce week-end")
        rf"|\b(?:{_FORECAST_WHEN})\b[^.!?]{{0,50}}\b(?:{_FORECAST_WEATHER})\b"
        rf"|\b(?:{_FORECAST_WEATHER})\b[^.!?]{{0,30}}\b(?:is|are)\s+(?:expected|forecast)\b"
        r"|\b(?:knmi|météo-france|aemet|deutsche[rn]? wetterdienst)\b"
        r"|\b(?:storms?|rain|snow|weather|sun|wind)\s+(?:should|will|is expected to|is going to)\s+"
        r"(?:clear|stop|ease|pass|continue|return|hold|let up)\b"
    ),
    "medical": (
        r"\b\d+\s?mg\b|\btake (?:some\s+)?(?:ibuprofen|acetaminophen|paracetamol|aspirin|antihistamines?)\b"
        r"|\bdosage\b|\bconsult (?:a|your) (?:doctor|physician|pharmacist|gp)\b|\bdrink plenty of (?:water|fluids)\b"
    ),
    "finance": (
        r"\binvest(?:ing)? (?:in|your)\b|\bindex funds?\b|\bbitcoin\b|\bcrypto(?:currency|currencies)?\b|\broth ira\b"
        r"|\b401\(?k\)?|\bstock market\b|\bdiversif(?:y|ied) (?:your )?portfolio\b|\bhigh-yield\b|\bsavings account\b"
        r"|\bpurchase protection\b|\bchargebacks?\b"
    ),
    "legal": (
        r"\byou (?:could|can|should|may want to|might want to) (?:sue|file a lawsuit|take (?:them|him|her) to court)\b"
        r"|\bsmall claims court\b|\b(?:consult|talk to|speak with|contact) (?:a|an) (?:lawyer|attorney|solicitor)\b"
        r"|\bmail order rule\b"
        r"|\btenant(?:s'|'s)? rights\b|\bsecurity deposit\b"
        r"|^\W*legally\b|\bin most (?:us |u\.s\. )?(?:states|countries|places|jurisdictions)\b[^.!?]{0,60}"
        r"\b(?:landlords?|laws?|legal|illegal|seller|risk|"
        r"required|has to|have to|must)\b"
    ),
    "homework": (
        r"(?<![\w$.,])\d*[a-z]?\s*[x×*/+−÷^-]\s*\d+(?:\.\d+)?\s*=\s*-?\d+(?!\w|\.\d)"
        r"|(?<![\w$])\d+[a-z]\s*=\s*-?\d+\b|(?<![\w$-])[a-z]\s*=\s*-?\d+(?:\.\d+)?\b(?!\w|\.\d|\$)"
        r"|\b(?:from|to|by|on)\s+both\s+sides\b|\bsquare root of\b|\b\w+\s*\^\s*\d\b"
        r"|\bsolve for [a-z]\b|\bthe (?:derivative|integral) of\b"
        r"|\b\d+\s+(?:divided by|times|multiplied by|plus|minus)\s+\d+\s+(?:is|equals|makes|gives)\s+\d+\b"
        r"|\b\d+\s+(?:squared|cubed)\b"
        r"|\bphotosynthesis\b|\bmitochondria\b|\bthe capital of [A-Z]\w+ is\b"
        r"|\b(?:was born|was founded|was invented|was signed|was completed|was built|began|ended|broke out)"
        r" in \d{3,4}\b"
    ),
    "sports": r"\b(?:super bowl|world cup|premier league|touchdowns?|home runs?|hat[- ]trick)\b",
    # another shop recommended, or a book's screen version: no part of Bookly support
    # a sight to see, a dish to try: a travel tip in any of the five languages
    "travel_tip": (
        r"\b(?:don't miss the|well worth a visit|worth a visit|vaut (?:vraiment |bien )?le détour|ne manquez pas|"
        r"allez voir|no (?:te|se) pierda|pruebe (?:el|la|los|las)|prueba (?:el|la)|einen besuch wert|"
        r"(?:ist|sind) (?:morgens|abends) am schönsten|de moeite waard|echt een aanrader)\b"
    ),
    # translating for the customer, a capital, a derivative: homework and general knowledge
    "general_knowledge": (
        r"\b(?:you'd|you would|you can) say [\"“'‘]"
        r"|\bin (?:spanish|french|german|dutch|english|japanese|italian|chinese),? "
        r"(?:is|it's|would be|a|an|the|you say)\b"
        r"|\b(?:heißt|heisst) (?:auf|im) (?:englisch|französisch|spanisch|niederländisch|deutsch)\w*"
        r"|\bse (?:dit|dice) en (?:anglais|espagnol|allemand|inglés|francés|alemán)\b"
        r"|\bin het (?:engels|frans|duits|spaans) (?:is|zou|heet)\b"
        r"|\b(?:the capital of|die hauptstadt von|la capital de|la capitale de|de hoofdstad van)\b"
        r"|[\"“'‘«]\s+(?:means|translates (?:to|as))\s+[\"“'‘«][^\"”’»]{2,80}[\"”’»]\s+in\s+"
        r"(?:english|french|german|spanish|dutch|italian)\b"
        r"|\b(?:derivative|ableitung|dérivée|derivada|afgeleide)\s+(?:of|von|de|van)\b"
    ),
    "consumer_law": (
        r"\b(?:médiateur de la consommation|garantie légale|widerrufsrecht|consumer protection law|attorney general|"
        r"ley de arrendamientos|carta certificada|huurcommissie|your lease)\b"
    ),
    "other_retailer": (
        # (their policies set beside ours are no referral: "I understand other shops do things differently")
        r"\bother (?:retailers|stores|shops|booksellers)\b(?!\s+(?:do things differently|(?:may |might |often )?"
        r"(?:have|offer) (?:different|longer|other|their own) (?:polic\w+|return windows?|terms|rules)))"
        r"|\b(?:audible|powell's|libby)\b"
        r"|\b(?:your )?(?:local|public) library\b|\b(?:bibliothèque|biblioteca|bibliotheek|bücherei|stadtbibliothek)\b"
    ),
    # the order to read a series in, a plot, a character: talk about the books, not the order
    "reading_order": (
        r"\bread (?:them|the (?:series|books|volumes)|it) in (?:publication |chronological |the right )?order\b"
        r"|\bin (?:publication|reading|chronological) order\b|\bbest read in order\b"
        r"|\bread [^.!?]{1,40} first"
        r"(?:, then (?-i:[A-Z])|(?=[^.!?]{0,60}\b(?:book|sequel|series|volume|second|trilogy)\b))"
        r"|\bstart with volume one\b"
    ),
    "plot": (
        r"\b(?:the main character|the protagonist|die hauptfigur|der protagonist|le personnage principal|"
        r"el protagonista|la protagonista|de hoofdpersoon)\b"
        r"|\bis about an? (?!return|refund|order|parcel)\w+ (?:who|that)\b"
        r"|\bfollows an? (?:young |old )?\w+ who\b|\berzählt (?:übrigens )?die geschichte\b|\btells the story of\b"
        r"|(?-i:\b(?:follows|suit|sigue a|volgt|gaat over|handelt von|trata de|parle de) [A-Z]\w+(?: [A-Z]\w+)?, "
        r"(?:an?|un|une|ein|eine|een|[a-zà-ÿ]+) )"
        r"|\b(?:parabel|parable|allegory|allégorie|alegoría|allegorie)\b"
        r"|\b(?:trata de|handelt von|raconte l'histoire d'|gaat over)\s*(?:un|una|einem|einer|un|une|een)\s+\w+\s+"
        r"(?:que|der|die|qui|die|dat)\b"
    ),
    # a present that never fails: a recommendation whatever the words around it
    "sure_hit": (
        r"\b(?:always|altijd|toujours|siempre|immer)\s+(?:a hit|a winner|een (?:succes|schot in "
        r"de roos)|un (?:succès|éxito|acierto)|ein (?:erfolg|volltreffer))\b"
        r"|\b(?:never fails|nunca falla|ne déçoit jamais)\b"
    ),
    "literary_trivia": (
        r"\b(?:nobel|pulitzer|booker|goncourt|hugo award|premio cervantes)\b|\bwon the\b[^.!?]{0,20}\bprize\b"
    ),
    "score": r"\b(?:won|lost|beat|drew)\s+\d+\s?[-–:]\s?\d+\b|\bwhat a (?:game|match)\b|\bpartidazo\b",
    "cooking": (
        r"\b\d+\s?(?:g|gr|kg|ml|cl)\s+(?:de\s+|d')?(?:farine|sucre|beurre|lait|harina|azúcar|mantequilla|leche|"
        r"mehl|zucker|butter|milch|bloem|suiker|boter|melk)\b"
        r"|\b(?:faites (?:revenir|mariner|cuire|fondre)|enfournez|préchauffez|vorheizen|precalienta|hornea|"
        r"verwarm de oven)\b|\b\d+\s+(?:huevos|œufs|eier|eieren|patatas)\b"
        r"|\b(?:una receta|une recette|ein rezept|een recept)\b[^.!?]{0,30}\b(?:es|est|ist|is)\b"
    ),
    "competitor": (
        r"\b(?:amazon|barnes (?:&|and) noble|waterstones|bol\.com|thalia|fnac|casa del libro|ebay|abebooks|walmart|"
        r"book depository|bookshop\.org|indigo|kobo store)\b(?!\s+(?:pay|account))"
    ),
    "adaptation": (
        r"\b(?:film|movie|tv|television|netflix|screen)\s+(?:adaptation|version|series)\b"
        r"|\bbeing adapted (?:into|for)\b"
        r"|\bverfilmung\b|\badaptation (?:au cinéma|cinématographique)\b|\badaptación (?:al cine|cinematográfica)\b"
        r"|\bverfilming\b"
    ),
    "advice": (
        r"\b(?:you should|try to|it helps to|make sure to)\s+(?:talk openly|communicate|meditate|stretch|"
        r"get (?:more )?sleep|drink (?:more )?water|exercise)\b|\bcouples? (?:therapy|counsel)"
    ),
}
# A first-person opinion about books: an opinion marker and a literary judgement in one sentence
# ("I think Dune is the better book", "personally I found Circe more gripping"). An opinion about
# the next step ("I think the best option is a return") judges no book.
OPINION_MARKER = (
    r"\b(?:i\s+(?:really\s+|personally\s+|honestly\s+)?(?:think|feel|believe|found|find|prefer|preferred|"
    r"loved|adored|liked)|i'd\s+(?:say|argue)|in my (?:humble\s+)?(?:opinion|view)|personally|honestly|if you ask me"
    r"|my (?:personal\s+|own\s+|all-time\s+)?(?:favou?rite|pick|vote))\b"
)
LITERARY_JUDGEMENT = (
    r"\b(?:better|best|greatest|finest|stronger|weaker|favou?rite|worse|superior)\s+(?:\w+\s+)?"
    r"(?:book|novel|read|series|story|stories|writer|author|of the (?:two|three|bunch|lot|series))\b"
    r"|\bmore\s+(?:gripping|readable|engaging|enjoyable|moving|compelling|interesting|original|satisfying|"
    r"beautiful|atmospheric|thought-provoking)\b"
    r"|\b(?:masterpiece|overrated|underrated|must-read|page-turner|beautifully written|well[- ]written|a classic"
    r"|feels? (?:a bit |rather |quite |too )?(?:dry|slow|dated|flat)|(?:great|good|fantastic|wonderful|brilliant|"
    r"gripping|fun|quick|easy|lovely) (?:read|novel|story))\b"
)
# A recommendation of a named work: "I'd recommend The Name of the Rose", "you might enjoy Dune".
RECOMMENDATION = (
    r"(?i:\b(?:i(?:'d|\s+would)?\s+(?:highly\s+|also\s+|really\s+)?(?:recommend|suggest)(?:\s+reading|\s+trying)?"
    r"|(?:you|she|he|they)(?:'d|\s+would|\s+might|\s+may|'ll|\s+will|\s+could)\s+(?:also\s+|really\s+|probably\s+|"
    r"definitely\s+|surely\s+)?(?:love|like|enjoy|prefer)"
    r"|you(?:\s+might|\s+could|\s+can|\s+may)\s+(?:also\s+)?(?:try|visit|check|look at|order from|shop at)"
    r"|try reading|check out|a (?:great|good|wonderful|perfect) (?:book|read|pick|choice|next read) (?:is|would be)"
    r"|(?:a|another|your)\s+(?:great|good|wonderful|perfect|lovely|natural)\s+(?:next\s+)?(?:book|read|pick|choice|"
    r"follow-up)\s+(?:is|would be|might be)"
    r"|(?:fans of|readers of|(?:readers|kids|children|people) who (?:like|love|liked|loved|enjoyed)) [^,.]{1,60}? "
    r"(?:often |usually |tend to |also )?"
    r"(?:love|like|enjoy)"
    r"|(?:pairs?|goes) (?:well|nicely|beautifully) with"
    r"|if you (?:liked|enjoyed|loved) [^,.]{1,60},?(?: you(?:'ll|\s+will|\s+might)? (?:also\s+)?(?:love|like|enjoy)"
    r"|\s*(?:try|read|pick up|grab))?)"
    r")\s+[\"“']?((?:[A-Z0-9][\w'’:-]*)(?:\s+(?:of|the|and|a|an|in|on|to|for|at|by|[A-Z0-9][\w'’:-]*)){0,8})"
)
# Capitalised words after "recommend" that are not a work's title.
NOT_A_TITLE = frozenset(
    {
        *("i", "it", "its", "it's", "you", "your", "we", "our", "they", "them", "that", "this", "these", "those"),
        *("bookly", "bk", "standard", "expedited", "checking", "contacting", "keeping", "waiting", "reaching"),
        *("using", "trying", "reading", "double-checking", "letting", "asking", "ups", "usps", "fedex", "dhl"),
    }
)

# The assistant referring to its own set-up: "my system prompt has six rules", "according to my
# instructions", "I've been told to", "Meine Anweisungen besagen".
OWN_INSTRUCTIONS = (
    r"\b(?:my|our) (?:system prompt|system message|hidden (?:rules|instructions)|instructions|guidelines|prompt|"
    r"(?:internal |operating )?rules say|rules)\b|\baccording to my (?:instructions|system prompt|guidelines|rules)\b"
    r"|\bi(?:'ve| have) been (?:told|instructed|programmed|configured) to\b|\bi was (?:told|instructed|programmed) to\b"
    r"|\bi (?:was|am|'m) (?:set up|configured|programmed|given) with\b|\brefusal template\b"
    r"|\b(?:a few|some) example conversations\b"
    # paraphrased: "My setup limits me to …", "Behind the scenes I have to …", "a special reply step"
    r"|\bmy (?:setup|set-up|configuration|programming)\b|\bi(?:'m| am) (?:set up|configured|programmed) (?:so|to)\b"
    r"|\bbehind the scenes,? i (?:have to|must|need to|am required to)\b"
    r"|\bi(?:'m| am) meant to (?:paste|use|send|say)\b"
    r"|\breply step\b|\blabel it with an intent\b|\bi(?:'m| am) told (?:never|not|to always)\b"
    # told or instructed, in the other four languages: "On m'a indiqué que …", "Mir wurde gesagt, dass …"
    r"|\bon m'a (?:indiqué|dit|demandé|expliqué|programmée?|configurée?|donné des (?:règles|instructions|consignes))\b"
    # its rules or its tools described: "I follow a set of critical rules", "I only have tools to look up orders"
    r"|\b(?:a|my) set of (?:\w+ )?rules\b|\bi (?:only )?have (?:the )?tools (?:to|for)\b"
    # what its tools return, its rules by name: "my lookup tool only returns …", "Under my critical rules"
    r"|\bmy\s+(?:\w+\s+)?tools?\s+(?:only\s+)?(?:returns?|gives?|shows?|provides?|lets me)\b"
    r"|\b(?:under|per|by)\s+my\s+(?:\w+\s+)?rules\b|\bmy\s+(?:critical|core|hard|strict)\s+rules\b"
    r"|\b(?:system ?prompt|systeemprompt|prompt (?:système|du système)|prompt del sistema)\b"
    # its instructions in the other languages: "Volgens mijn systeeminstructies moet ik …"
    r"|\b(?:systeeminstructies|systemanweisungen|systeminstruktionen|instructions (?:du )?système|"
    r"instrucciones del sistema)\b|\b(?:volgens mijn|laut meinen|selon mes|según mis)\s+(?:instructies|anweisungen|"
    r"instructions|instrucciones|regels|regeln|règles|reglas)\b"
    r"|\bmir wurde (?:gesagt|vorgegeben|aufgetragen)\b"
    r"|\bme (?:indicaron|dijeron|pidieron|programaron)\b|\bmij is (?:gezegd|opgedragen|verteld)\b"
    r"|\b(?:meine|mes|mis|mijn) (?:anweisungen|systemanweisungen|instructions|consignes|instrucciones|instructies)\b"
    r"|\b(?:laut|gemäß) meinen (?:anweisungen|vorgaben|regeln|richtlinien)|\bselon mes (?:instructions|consignes|"
    r"règles)|\bsegún mis (?:instrucciones|reglas|indicaciones)|\bvolgens mijn (?:instructies|regels|richtlijnen)\b"
    r"|\b(?:mein(?:em|en)?|mon|mi|mijn) (?:systemprompt|system-prompt|prompt système|prompt del sistema|"
    r"systeemprompt)\b"
    r"|\b(?:meine|mes|mis|mijn) (?:\w+ )?(?:regeln|règles|reglas|regels|vorgaben|richtlijnen|directrices)(?: \w+)? "
    r"(?:sagen|besagen|verlangen|disent|exigent|dicen|exigen|zeggen|vereisen)\b"
    # its tools and the reminders it gets: "I use one tool to look up …", "before every reply I get a reminder"
    r"|\bi (?:use|have|call) (?:one|a|two|three|four|several|different) tools?\b|\bmy tools\b"
    r"|\b(?:a|the) reminder\b[^.!?]{0,30}\b(?:telling|tells|says|reminding)\b|\bi was told \""
    r"|\bhere's how i work\b|\bi must (?:always |never )?(?:write|use|reply|answer|refuse|only|not)\b"
)

# --- Scope: what a support reply may talk about ---------------------------------------------------
# Bookly's scope is closed (orders, returns, shipping, the account, the policy), so the check lists
# what a reply may talk about, never the subjects it may not: a list of other subjects cannot be
# complete, a list of this product's subjects can. Every sentence of a reply is one of
#   - support: it names part of the support domain (SUPPORT_ANCHOR) or this thread's order, items
#     or facts;
#   - courtesy: a speech act towards the customer (COURTESY): thanks, apology, a wish, an offer;
#   - a question to the customer ("Which one did you mean?"): a clarification;
#   - foreign: none of these; its clauses that are not courtesy count. FOREIGN_SURE_WORDS content
#     words of foreign text in a reply engage another subject (blocked); FOREIGN_UNSURE_WORDS are
#     only unsure (flagged for staff).
SUPPORT_ANCHOR = (
    r"\b(?:(?:our|bookly's|bookly|the|support|customer)\s+(?:support\s+)?team|support|send|sent|orders?|ordered|"
    r"returns?|returned|returning|returnable|refund\w*|ship(?:s|ped|ping|ment)?|deliver\w*|tracking|track|"
    r"parcels?|packages?|password|log ?in|sign ?in|account|items?|copy|copies|labels?|rma|emails?|bookly|carriers?|"
    r"couriers?|total|price[sd]?|cost|amount|subtotal|purchase\w*|paid|payment|receipt|eligib\w*|confirm\w*|address|bk-\d+|arriv\w*|dispatch\w*|"
    r"placed (?:it|them|the order|your order)|reach(?:ed|es)? you|"
    r"(?:our|the|this|that|return|returns|refund|shipping|store|bookly's|privacy|password|delivery)\s+polic(?:y|ies)|"
    r"window|fees?|charged?|cards?|credit|store|status|processing|cancel\w*|transit|postage|"
    r"mail(?:box|ed)?|doorstep|porch|neighbou?r\w*|reception|concierge|doorman|front desk|mailroom|pick(?:ed)? up|"
    # someone receiving the parcel for the customer: "ask the landlord's office to hold it for you"
    r"(?:hold|keep|take in|sign for)\s+(?:it|them|the parcel|the package|your parcel|your package)|"
    r"voisin\w*|gardien|nachbar\w*|vecin[oa]s?|portero|conserje|buren|buurm\w+|buurvrouw|"
    r"drop(?:ped)? off|scan\w*|"
    r"prepaid|hardback|hardcover|paperback|edition|audiobook|e-?book|gift cards?|damaged|torn|missing|wrong|"
    r"late|delay\w*|reset|link|inbox|spam|verif\w*|look(?:ed|ing)? (?:it |this |that )?up|check\w*|button|"
    r"the app|conversations?|chats?|our team|a colleague|"
    r"(?:my|your|the|that|this|these|those)(?: previous| last| earlier| other| \d+| two| three)? (?:details|messages?|"
    r"repl(?:y|ies)|answers?|questions?|requests?)|post ?office|postal"
    r"|numbers?"
    r"|(?:your|the|both|all|these|those|each|two|three|four|five|\d+) (?:\w+ )?books?"
    # The same in the other four languages of the store: German, French, Spanish, Dutch.
    r"|bestell\w*|rücksend\w*|rückgabe\w*|erstatt\w*|lieferung\w*|geliefert|versand\w*|versendet|sendung\w*"
    r"|paket\w*|commande\w*|retour\w*|rembours\w*|livr(?:aison|é|ée|és|ées|er|ez|ons)\w*|exp[ée]di\w*|colis|suivi"
    r"|pedido\w*|devoluci[oó]n\w*"
    r"|devolver|reembols\w*|entreg\w*|env[ií]\w*|paquete\w*|seguimiento|bestelling\w*|terugbetal\w*|geleverd"
    r"|levering\w*|verzend\w*|verzonden|pakket\w*"
    r"|prüf\w*|frist\w*|zurück\w*|artikel|titel|buch|bücher|konto|passwort|adresse|nummer|bezahl\w*|karte|"
    r"bestätig\w*|storn\w*|etikett\w*|zustell\w*|vorbereit\w*|gestartet|e-mail\w*|livres?|compte|mot de passe|"
    r"numéro|paiement|carte|délai|annul\w*|étiquette|confirm\w*|préparé\w*|libros?|cuenta|contraseña|número|pago|"
    r"tarjeta|plazo|etiqueta|cancelad\w*|preparad\w*|confirmad\w*|boek\w*|account|wachtwoord|betaling|kaart|"
    r"termijn|geannuleerd|bevestig\w*|klaargezet|bezorg\w*)\b"
    r"|\$\d"
)
# A sentence that opens with sympathy is courtesy, whatever it sympathises with ("I'm sorry you've had
# storms, snow and freezing rain all week").
# A sentence that opens by declining ("I'm not able to give out discount codes, I'm afraid") names what it
# declines: no engagement, up to a contrast ("I can't give medical advice, but ibuprofen…" engages after it).
DECLINE_OPENER = (
    r"^\W*(?:(?:sorry|unfortunately|i'm afraid)[,\s]+)?(?:i|we)(?:'m|\s+am|'re|\s+are)?\s+(?:really\s+|just\s+)?"
    r"(?:not able to|unable to|can't|cannot|can not|won't be able to|don't|do not)\b"
)
EMPATHY_OPENER = (
    r"^\W*(?:(?:i'm|i am|we're|we are)\s+(?:so\s+|really\s+|very\s+|truly\s+)?sorry|sorry to hear|that sounds|"
    r"i understand|oh no|es tut (?:mir|uns) leid|je suis (?:vraiment\s+)?désolée?|nous sommes désolés|lo siento|"
    r"siento (?:mucho\s+)?que|sentimos|het spijt (?:me|ons)|wat vervelend)\b"
)
# A sentence that announces a digression ("Incidentally, it has sold over 50 million copies"): its
# content about no part of support is engagement, however few words it has.
DIGRESSION = (
    # (also the answer to another question the customer asked: "As for your book club, …", "Zu Ihrer Frage: …",
    # "Y sobre tu pregunta: …", and a tip announced as one: "Un consejo: …")
    r"^\W*(?:(?:and|und|et|y|en)\s+)?(?:as for your|as to your|about your other question|"
    r"(?:about|on|to|regarding)\s+your\s+(?:other\s+|second\s+)?question|zu\s+(?:ihrer|deiner)\s+(?:anderen\s+)?frage|"
    r"quant à (?:votre|ta)|pour (?:votre|ta) (?:autre )?question|(?:sobre|en cuanto a) (?:tu|su) (?:otra )?pregunta|"
    r"wat (?:je|uw) (?:andere )?vraag betreft|(?:a|one|quick|little) tip:|ein tipp:|un (?:petit )?conseil\s?:|"
    r"un consejo:|een tip:|"
    r"incidentally|by the way|fun fact|as an aside|on another note|on a different note|unrelated,?|"
    # the other thing the customer raised: "And since you asked, …", "For the bug you mentioned, …"
    r"since you asked|(?:for|about|as for|regarding)\s+the\s+(?:\w+\s+){1,3}?you mentioned|"
    r"in other news|(?:pro )?tip:|"
    r"did you know|i hear(?!\s+you\b)|i heard(?!\s+you\b)|apparently|rumou?r has it|"
    r"for your (?:book club|essay|class|homework|report|paper|presentation|assignment|trip|party|dinner|"
    r"(?:\w+'s )?birthday|wedding|anniversary|holiday|vacation)|"
    r"voor (?:je|uw) (?:vakantie|reis|verjaardag|feest|werkstuk|boekenclub)|"
    r"für (?:ihren|deinen|ihre|deine) (?:urlaub|reise|geburtstag|besuch|referat|buchclub)|"
    r"pour (?:vos|tes|votre|ton) (?:vacances|voyage|anniversaire|exposé|club de lecture)|"
    r"para (?:tus|sus|tu|su) (?:vacaciones|viaje|cumpleaños|trabajo|club de lectura)|"
    r"übrigens|nebenbei(?: bemerkt)?|apropos|au fait|d'ailleurs|par ailleurs|soit dit en passant|por cierto|"
    r"a propósito|dicho sea de paso|trouwens|overigens|tussen haakjes|dato curioso|curiosidad|wist je dat|"
    r"saviez-vous que|sabías que|wussten sie|wusstest du)\b"
)
DIGRESSION_WORDS = 2
# What a digression may still be about: the order, its return or refund, in the five languages.
ORDER_FACT_WORD = (
    r"\b(?:orders?|refund\w*|return\w*|label|tracking|ship\w*|deliver\w*|parcel|package|password|rma|bk-\d+|"
    r"account|bestell\w*|rücksend\w*|erstatt\w*|paket\w*|commande\w*|retour\w*|rembours\w*|colis|pedido\w*|"
    r"devoluci\w*|reembols\w*|paquete\w*|bestelling\w*|terugbetal\w*|pakket\w*)\b|\$\d"
)
# Recommending in the other four languages ("je vous conseille", "te recomiendo", "empfehle ich"):
# in a sentence about no part of support, a recommendation of something else.
OTHER_LANGUAGE_RECOMMENDATION = (
    # another book said to suit better: "Le Petit Nicolas serait une lecture plus adaptée"
    r"\b(?:serait|seraient)\s+(?:une|un)\s+(?:\w+\s+)?(?:lecture|choix)\b|\bwäre\s+(?:eine|ein)\s+(?:\w+\s+)?(?:lektüre|wahl)\b"
    r"|\bsería\s+(?:una|un)\s+(?:\w+\s+)?(?:lectura|opción)\b|\bzou\s+een\s+(?:\w+\s+)?(?:keuze|leesvoer)\s+zijn\b|"
    r"\b(?:je (?:vous|te) (?:conseille|recommande)|(?:te|le|les) recomiendo|recomiendo|(?:ich )?empfehle|"
    r"kann ich (?:ihnen|dir) \S+(?: \S+)? empfehlen|(?:ik )?raad (?:ik )?(?:je |u |jou )?\S+(?: \S+){0,6}? aan|"
    r"aanrader|"
    # reading more, advised: "Lees dan ook Zomerhuis met zwembad", "Lies doch auch …", "Lisez aussi …"
    r"lees (?:dan |ook )+|lies (?:doch |dann )?auch|lisez (?:donc )?aussi|lee también|"
    r"ik kan (?:je|u) \S+(?: \S+)? aanraden|vous devriez (?:lire|essayer|visiter)|deberías (?:leer|probar|visitar)|"
    r"sollten sie (?:\S+ )?(?:lesen|probieren|besuchen)|moet je (?:\S+ )?(?:lezen|proberen|bezoeken)|"
    r"lisez (?:aussi|également|donc)|lesen sie (?:unbedingt|auch|doch)|sollten sie unbedingt|lea también|"
    r"lee también|lees (?:ook|zeker)|moet je zeker|"
    # "if you liked X, …" in the other four languages
    r"wenn (?:ihnen|dir) [^,.]{1,60} gef(?:ällt|allen hat)|si (?:vous avez aimé|vous aimez|tu as aimé|tu aimes)|"
    r"si te (?:gustó|gusta)|si le (?:gustó|gusta)|als (?:je|u) [^,.]{1,60} (?:mooi|leuk|goed) (?:vond|vindt)|"
    r"als [^,.]{1,60} (?:je|u) (?:bevalt|beviel|bevallen))"
)
# A reply of at least this many words with no support word at all is flagged.
ANCHORLESS_WORDS = 12
# Content words of foreign text in a reply that engage another subject (block), or may (flag).
FOREIGN_SURE_WORDS = 5
FOREIGN_UNSURE_WORDS = 3
# A reply is read as English when at least this share of its words are English function words
# (ordinary English prose: 0.4-0.6; German, French, Spanish, Dutch: under 0.1).
ENGLISH_SHARE = 0.2

# A speech act towards the customer: thanks, apology, sympathy, a wish, an offer of more help. It
# engages no subject, whatever it wishes the customer well for ("I hope you have a wonderful trip").
COURTESY = (
    # "hope", "wish" and "happy" as the speaker's wish, not the nouns ("his hope and his longing for Daisy")
    # (the speaker before "hope" is read behind it: an alternative starting with "i" costs a try at every "i")
    r"\b(?:(?:(?<=\bi\s)|(?<=\bwe\s)|(?<=\bi'd\s)|(?<=\bdo\s)|(?<=\breally\s)|(?<=\btruly\s))(?:hope|wish)|"
    r"hoping|hope (?:you|this|that|it|everything|all|your|the)|enjoy|"
    r"have a (?:great|good|lovely|wonderful|nice|fantastic|safe)|wish(?:ing)? you|congrat\w*|happy|"
    r"safe travels|take care|sounds (?:lovely|great|wonderful|fun|like an? )|good luck|have fun|sorry|apolog\w*|glad|"
    r"thanks?|thank you|welcome|appreciate\w*|understand\w*|frustrat\w*|annoying|inconvenien\w*|stressful|"
    r"patience|no problem|no worries|of course|anything else|let me know|whenever you|feel free|any ?time|"
    r"take (?:all )?(?:the|your) time|"
    r"hello|hi|hey|good (?:morning|afternoon|evening)|bye|goodbye|cheers|pleasure|i'm here|here to help|"
    r"right away|got it|noted|what an? (?:lovely|great|nice|wonderful|kind|thoughtful)|"
    r"(?:that's|that is|it's|so) (?:really |so |very )?(?:nice|kind|lovely|good|great|wonderful) (?:to hear|of you)|"
    r"stay (?:dry|warm|safe|cool)|"
    r"that'?s (?:fine|ok|okay|alright|all right)|no need to|no rush|"
    r"please (?:tell|let|send|check|confirm|reply|share|give|write|keep)"
    # German, French, Spanish, Dutch
    r"|danke\w*|vielen dank|leider|entschuldig\w*|tut (?:mir|uns) leid|gerne?|viel (?:spa(?:ß|ss)|freude)|"
    r"schönen? (?:tag|abend|wochenende)|alles gute|hallo|guten (?:tag|morgen|abend)|"
    r"merci|désolée?s?|excus\w*|avec plaisir|bonne (?:journée|soirée|lecture|continuation)|bonjour|bonsoir|"
    r"n'hésitez pas|au revoir|gracias|lo siento|sentimos|disculp\w*|con gusto|que (?:disfrute|disfrutes)|"
    r"buen(?:os|as)? (?:días|tardes|noches|día)|hola|un saludo|saludos|bedankt|dank (?:je|u) wel|helaas|"
    r"sorry|excuses|graag gedaan|veel (?:plezier|leesplezier)|fijne (?:dag|avond)|hallo|groeten|"
    r"algo más|etwas anderes|sonst noch|autre chose|nog iets|ayudar\w*|helfen|aider|helpen)\b"
)
# Function words, which count as no content in a foreign sentence.
FUNCTION_WORDS = _word_set(
    "a an the and or but so to of in on at for with by from into about as if then than that this these those "
    "is are was were be been being am it its it's i i'm i'll i've i'd me my we we'll we're we've our you "
    "you're you'll you've you'd your he she they them their there here what which who whom whose when where "
    "why how not no yes do does did done can could would should will shall may might must just also very "
    "really quite too all any some more most much many one ones other another such own same each every both "
    "either neither only even still already now then again up out over under after before while because "
    "let's let get got go going have has had having make made like well way ah oh hmm ha right okay ok sure "
    "isn't aren't wasn't weren't hasn't haven't hadn't don't doesn't didn't can't couldn't won't wouldn't "
    "shouldn't it'll that's there's what's here's"
)
# The same kind of words in German, French, Spanish and Dutch: no content in a foreign sentence either,
# so a reply in those languages is counted like one in English.
OTHER_LANGUAGE_FUNCTION_WORDS = _word_set(
    # German
    "der die das den dem des ein eine einen einem einer eines und oder aber so zu von in im am an auf aus bei mit "
    "nach seit vom zum zur ist sind war waren wird werden wurde wurden hat haben hatte hatten sein ihr ihre ihren "
    "ihrem ihrer ich du er sie es wir mich mir dich dir uns euch sich wenn dann als wie was wer wo noch schon auch "
    "nur sehr ganz nicht kein keine keinen kann können konnte muss müssen soll sollte will wollen bitte ja nein "
    "hier dort da dass ob für über unter vor hinter zwischen durch gegen ohne um bis mal doch denn etwa gerne "
    # French
    "le la les un une des du de au aux et ou mais donc car ni que qui quoi dont où ce cet cette ces mon ma mes ton "
    "ta tes son sa ses notre nos votre vos leur leurs je tu il elle on nous vous ils elles me te se lui en y est "
    "sont était étaient sera été être avoir avez avons ont a ai as pas plus ne très bien aussi encore déjà pour "
    "par avec sans sous sur dans chez entre vers comme si oui non ici là tout tous toute toutes peut pouvez "
    # Spanish
    "el los las un una unos unas y o pero porque que quien cual cuando donde como del al a ante bajo con contra "
    "desde en entre hacia hasta para por según sin sobre tras mi mis tu tus su sus nuestro nuestra yo él ella "
    "nosotros usted ustedes ellos ellas me te se le les lo es son fue era está están estaba ser estar ha han he "
    "hay muy más menos también ya todavía aún no sí aquí allí todo toda todos todas puede puedes "
    # Dutch
    "de het een en of maar dus want dat die dit deze wie wat welke waar wanneer hoe van in op aan bij met naar "
    "voor door over onder uit tot om als dan ook nog al niet geen wel heel erg zeer is zijn was waren wordt worden "
    "werd heeft hebben had ik jij je u hij zij ze wij we jullie mijn jouw uw zijn haar ons onze hun hier daar er "
    "kan kunt kunnen moet moeten zal zullen wil willen graag ja nee"
)


# --- Markdown and month names ------------------------------------------------------------------
# Unlike the tables above, these are compiled here and matched against the whole reply.

MARKDOWN_PATTERNS = (
    ("heading", re.compile(r"^\s{0,3}#{1,6}\s+\S|(?<=[.!?:])\s+#{2,6}\s+[A-Z]", re.MULTILINE)),
    ("bold", re.compile(r"\*\*[^*\n]+\*\*|(?<![\w_])__[^_\n]+__(?![\w_])")),
    (
        "italic",
        re.compile(
            r"(?<![\w*])\*(?=\S)[^*\n]+(?<=\S)\*(?![\w*])"
            r"|(?<![\w_])_(?=[^\s_])[^_\n]+(?<=[^\s_])_(?![\w_])"
        ),
    ),
    ("bullet", re.compile(r"^\s*[-*+]\s+\S", re.MULTILINE)),
    ("code", re.compile(r"`")),
    ("link", re.compile(r"!?\[[^\]\n]+\]\([^)\s]+\)")),
    ("table", re.compile(r"^\s*\|.*\|\s*$|^\s*\|?\s*:?-{3,}:?\s*\|", re.MULTILINE)),
    ("quote", re.compile(r"^\s*>\s?\S", re.MULTILINE)),
    ("rule", re.compile(r"^\s*(?:-{3,}|\*{3,}|_{3,})\s*$", re.MULTILINE)),
)


# Month names of the store's other four languages (German, French, Spanish, Dutch) not read by
# their first three letters as English ones are.
OTHER_LANGUAGE_MONTHS = {
    **dict.fromkeys(("januar", "janvier", "enero", "januari"), 1),
    **dict.fromkeys(("februar", "février", "fevrier", "febrero", "februari"), 2),
    **dict.fromkeys(("märz", "maerz", "mars", "marzo", "maart"), 3),
    **dict.fromkeys(("avril", "abril"), 4),
    **dict.fromkeys(("mai", "mayo", "mei"), 5),
    **dict.fromkeys(("juni", "juin", "junio"), 6),
    **dict.fromkeys(("juli", "juillet", "julio"), 7),
    **dict.fromkeys(("août", "aout", "agosto", "augustus"), 8),
    **dict.fromkeys(("septembre", "septiembre"), 9),
    **dict.fromkeys(("oktober", "octobre", "octubre"), 10),
    **dict.fromkeys(("novembre", "noviembre"), 11),
    **dict.fromkeys(("dezember", "décembre", "decembre", "diciembre"), 12),
}
MONTHS = {
    "jan": 1,
    "feb": 2,
    "mar": 3,
    "apr": 4,
    "may": 5,
    "jun": 6,
    "jul": 7,
    "aug": 8,
    "sep": 9,
    "oct": 10,
    "nov": 11,
    "dec": 12,
}

# --- Word lists the checks read beside the tables above -------------------------------------------

# A return said to fit the window ("within the 30 days") or still possible ("you can still return it").
WITHIN_WINDOW = r"\bwithin\s+(?:the|its|your|\d+|thirty)\b"
STILL_RETURNABLE = r"\byou\s+(?:can|could|may)\s+(?:still\s+)?(?:return|send back)\b"

# Books the customer keeps beside a return, in the five languages.
KEPT = (
    r"\b(?:keep|keeping|kept|(?:stays?|remains?)\s+(?:with you|on your order|in your order|with your order)|"
    r"behalten|behältst|garder|gardez|quedarte|quedarse|houden|houdt|blijft bij (?:je|u)|bleibt bei (?:ihnen|dir)|"
    r"reste (?:bien\s+)?(?:chez|avec) (?:vous|toi)|se queda (?:contigo|con usted)|"
    # left out of the return it describes: "Crying in H Mart isn't included", "Elantris can't be returned"
    r"(?:isn't|is not|aren't|are not)\s+(?:included|part of (?:it|this|the return|this return))|"
    r"(?:can't|cannot|can not)\s+be\s+returned|(?:isn't|is not|aren't|are not)\s+returnable|"
    r"n'est pas (?:inclus|compris)e?|no (?:está|entra) (?:incluid[oa]|en (?:la|esta) devolución)|"
    r"(?:ist|sind) nicht (?:enthalten|dabei|inbegriffen)|(?:is|zijn) niet (?:inbegrepen|meegenomen))\b"
)

# A print copy and a digital one, told apart in a reply about both.
PRINT_FORMAT = r"paperback|softcover|taschenbuch|broché|tapa blanda|paperback-editie"
DIGITAL_WORD = (
    r"\b(?:e-?books?|audio ?books?|digital|hörb[üu]ch\w*|livres? (?:audio|numériques?)|audiolibros?|"
    r"libros? electrónicos?|"
    r"luisterboek\w*)\b"
)

# What an order is said to hold, before a count: "BK-90346 has 3 copies".
HOLDING = r"\b(?:has|had|have|holds?|held|contains?|contained|includes?|included|with|there are)\b"

# A book, in the five languages (a gift card is an item, not a book).
BOOK_WORD = r"\b(?:libros?|livres?|buch|bücher|boek(?:en)?|books?|roman|novela|novel)\b"

# A payment card in a refund method's name: "Visa ending 4417", "Carte Bancaire".
CARD_WORD = r"card|carte|karte|tarjeta|kaart"

# Words any support reply uses: eight prompt words in a row made only of these are no prompt leak.
PUBLIC_WORDS = _word_set(
    "a an the and or but if of to for with about on in at by from this that these those it its is are was "
    "be can could would will i you your we our my me us there here what which how when where why who "
    "order orders return returns refund refunds policy policies question questions book books item items "
    "help anything else please thanks thank "
    # an order number's form is the customer's to know: "BK- followed by 4 to 6 digits"
    "number numbers bk followed digit digits letters 1 2 3 4 5 6 7 8 9 0"
)

# The weekdays in the five languages, Monday first (date.weekday()): a weekday written before a date must be
# that date's ("You ordered it on Thursday, August 14" when August 14 was a Friday is a false fact).
WEEKDAYS: dict[str, int] = {
    name: index
    for names in (
        "monday tuesday wednesday thursday friday saturday sunday",
        "montag dienstag mittwoch donnerstag freitag samstag sonntag",
        "lundi mardi mercredi jeudi vendredi samedi dimanche",
        "lunes martes miércoles jueves viernes sábado domingo",
        "maandag dinsdag woensdag donderdag vrijdag zaterdag zondag",
    )
    for index, name in enumerate(names.split())
}
